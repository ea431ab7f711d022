"""The public, TensorFlow-shaped namespaces (`tf.math`, `tf.nn`, ...). They define nothing:
each module re-exports functions from the layers below (DESIGN layer 10)."""
