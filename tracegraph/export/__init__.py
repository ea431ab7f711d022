"""Layer 9: the native saved format (`tf.saved_model`, `tf.train.Checkpoint`).

Everything written is JSON plus `.npz` archives of plain arrays; nothing is pickled, and the
loader treats every file as untrusted: each field is validated before use, and any problem is a
`SavedDataError` naming the file and the field (DESIGN "Nothing unsafe on load").
"""
