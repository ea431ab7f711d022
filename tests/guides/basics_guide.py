import tensorflow as tf

x = tf.constant([[1., 2., 3.],
                 [4., 5., 6.]])
print(x)
print(x.shape)
print(x.dtype)
print(x + x)
print(5 * x)
print(x @ tf.transpose(x))
print(tf.concat([x, x, x], axis=0))
print(tf.nn.softmax(x, axis=-1))
print(tf.reduce_sum(x))
print(tf.convert_to_tensor([1,2,3]))
print(tf.reduce_sum([1,2,3]))
if tf.config.list_physical_devices('GPU'):
  print("TensorFlow **IS** using the GPU")
else:
  print("TensorFlow **IS NOT** using the GPU")
var = tf.Variable([0.0, 0.0, 0.0])
print(var.assign([1, 2, 3]))
print(var.assign_add([1, 1, 1]))
x = tf.Variable(1.0)
def f(x):
  y = x**2 + 2*x - 5
  return y
print(f(x))
@tf.function
def my_func(x):
  print('Tracing.\n')
  return tf.reduce_sum(x)
x = tf.constant([1, 2, 3])
print(my_func(x))
x = tf.constant([10, 9, 8])
print(my_func(x))
x = tf.constant([10.0, 9.1, 8.2], dtype=tf.float32)
print(my_func(x))
x = tf.linspace(-2, 2, 201)
x = tf.cast(x, tf.float32)
def f(x):
  y = x**2 + 2*x - 5
  return y
print(f(x)[:3])
