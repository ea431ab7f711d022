"""TensorFlow's formats: GraphDefs TensorFlow imports, protobuf messages, TF's op definitions."""
