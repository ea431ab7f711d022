"""Layer 9: graphs leaving Python. TensorBoard event files and `tf.summary` (`summary`,
`events`), real protobuf GraphDefs (`protos`), TensorFlow-importable GraphDefs (`tensorflow`).

Every external tool is an optional extra, imported only when used (`extras.require`).
"""
