# ruff: noqa
# "Advanced automatic differentiation" (TensorFlow guide), the cells without Keras.
import tensorflow as tf

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
  x_sq = x * x
  with t.stop_recording():
    y_sq = y * y
  z = x_sq + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])

x = tf.Variable(2.0)
y = tf.Variable(3.0)
reset = True
with tf.GradientTape() as t:
  y_sq = y * y
  if reset:
    t.reset()
  z = x * x + y_sq
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as t:
  y_sq = y**2
  z = x**2 + tf.stop_gradient(y_sq)
grad = t.gradient(z, {'x': x, 'y': y})
print('dz/dx:', grad['x'])
print('dz/dy:', grad['y'])

@tf.custom_gradient
def clip_gradients(y):
  def backward(dy):
    return tf.clip_by_norm(dy, 0.5)
  return y, backward

v = tf.Variable(2.0)
with tf.GradientTape() as t:
  output = clip_gradients(v * v)
print(t.gradient(output, v))

x0 = tf.constant(0.0)
x1 = tf.constant(0.0)
with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
  tape0.watch(x0)
  tape1.watch(x1)
  y0 = tf.math.sin(x0)
  y1 = tf.nn.sigmoid(x1)
  y = y0 + y1
  ys = tf.reduce_sum(y)
print(tape0.gradient(ys, x0).numpy())
print(tape1.gradient(ys, x1).numpy())

x = tf.Variable(1.0)
with tf.GradientTape() as t2:
  with tf.GradientTape() as t1:
    y = x * x * x
  dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)
print('dy_dx:', dy_dx.numpy())
print('d2y_dx2:', d2y_dx2.numpy())

x = tf.linspace(-10.0, 10.0, 200+1)
delta = tf.Variable(0.0)
with tf.GradientTape() as tape:
  y = tf.nn.sigmoid(x+delta)
dy_dx = tape.jacobian(y, delta)
print(y.shape)
print(dy_dx.shape)

x = tf.random.normal([7, 5])
kernel = tf.Variable(tf.random.normal([5, 10]))
bias = tf.Variable(tf.zeros([10]))
with tf.GradientTape(persistent=True) as tape:
  y = tf.nn.relu(x @ kernel + bias)
print(y.shape)
print(kernel.shape)
j = tape.jacobian(y, kernel)
print(j.shape)
slice = j[2, 3, :, :]
delta = 1e-3
kernel_new = kernel + tf.one_hot(3, 10)[None, :] * 0 if False else kernel
g = tape.gradient(y, kernel)
print('g.shape:', g.shape)
j_sum = tf.reduce_sum(j, axis=[0, 1])
delta = tf.reduce_max(abs(g - j_sum)).numpy()
assert delta < 1e-3
print('delta:', delta < 1e-3)

x = tf.random.normal([7, 5])
w1 = tf.Variable(tf.random.normal([5, 8]))
w2 = tf.Variable(tf.random.normal([8, 6]))
with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
  tape.watch(x)
  y = tf.nn.elu(x @ w1)
  y = tf.nn.elu(y @ w2)
print(y.shape)
j = tape.jacobian(y, x)
print(j.shape)
j_sum = tf.reduce_sum(j, axis=2)
print(j_sum.shape)
j_select = tf.einsum('bxby->bxy', j)
print(j_select.shape)
jb = tape.batch_jacobian(y, x)
print(jb.shape)
error = tf.reduce_max(abs(jb - j_sum))
assert error < 1e-3
print(error.numpy() < 1e-3)

x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as tape:
  z = x * y
print([v.numpy() for v in tape.gradient(z, [x, y])])
