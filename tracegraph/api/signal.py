"""`tf.signal`."""
