# ruff: noqa
# "Introduction to gradients and automatic differentiation" (TensorFlow guide), non-Keras cells.
import tensorflow as tf

x = tf.Variable(3.0)
with tf.GradientTape() as tape:
  y = x**2
dy_dx = tape.gradient(y, x)
print(dy_dx.numpy())

w = tf.Variable(tf.random.normal((3, 2)), name='w')
b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')
x = [[1., 2., 3.]]
with tf.GradientTape(persistent=True) as tape:
  y = x @ w + b
  loss = tf.reduce_mean(y**2)
[dl_dw, dl_db] = tape.gradient(loss, [w, b])
print(w.shape)
print(dl_dw.shape)
my_vars = {'w': w, 'b': b}
grad = tape.gradient(loss, my_vars)
print(grad['b'].shape, grad['w'].dtype)

x0 = tf.Variable(3.0, name='x0')
x1 = tf.Variable(3.0, name='x1', trainable=False)
x2 = tf.Variable(2.0, name='x2') + 1.0
x3 = tf.constant(3.0, name='x3')
with tf.GradientTape() as tape:
  y = (x0**2) + (x1**2) + (x2**2)
grad = tape.gradient(y, [x0, x1, x2, x3])
for g in grad:
  print(g)
print([var.name for var in tape.watched_variables()])

x = tf.constant(3.0)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = x**2
dy_dx = tape.gradient(y, x)
print(dy_dx.numpy())

x0 = tf.Variable(0.0)
x1 = tf.Variable(10.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
  tape.watch(x1)
  y0 = tf.math.sin(x0)
  y1 = tf.nn.softplus(x1)
  y = y0 + y1
  ys = tf.reduce_sum(y)
grad = tape.gradient(ys, {'x0': x0, 'x1': x1})
print('dy/dx0:', grad['x0'])
print('dy/dx1:', grad['x1'].numpy())

x = tf.constant(3.0)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = x * x
  z = y * y
print(tape.gradient(z, y).numpy())

x = tf.constant([1, 3.0])
with tf.GradientTape(persistent=True) as tape:
  tape.watch(x)
  y = x * x
  z = y * y
print(tape.gradient(z, x).numpy())
print(tape.gradient(y, x).numpy())
del tape

x = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
  y0 = x**2
  y1 = 1 / x
print(tape.gradient(y0, x).numpy())
print(tape.gradient(y1, x).numpy())

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
  y0 = x**2
  y1 = 1 / x
print(tape.gradient({'y0': y0, 'y1': y1}, x).numpy())

x = tf.Variable(2.)
with tf.GradientTape() as tape:
  y = x * [3., 4.]
print(tape.gradient(y, x).numpy())

x = tf.linspace(-10.0, 10.0, 200+1)
with tf.GradientTape() as tape:
  tape.watch(x)
  y = tf.nn.sigmoid(x)
dy_dx = tape.gradient(y, x)
print(dy_dx.shape, float(tf.reduce_max(dy_dx)))

x = tf.constant(1.0)
v0 = tf.Variable(2.0)
v1 = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
  tape.watch(x)
  if x > 0.0:
    result = v0
  else:
    result = v1**2
dv0, dv1 = tape.gradient(result, [v0, v1])
print(dv0)
print(dv1)
dx = tape.gradient(result, x)
print(dx)

x = tf.Variable(2.)
y = tf.Variable(3.)
with tf.GradientTape() as tape:
  z = y * y
dy_dx = tape.gradient(z, x)
print(dy_dx)

x = tf.Variable(2.0)
for epoch in range(2):
  with tf.GradientTape() as tape:
    y = x+1
  print(tape.gradient(y, x))
  x = x + 1

x0 = tf.Variable(3.0)
x1 = tf.Variable(0.0)
with tf.GradientTape() as tape:
  x1.assign_add(x0)
  y = x1**2
print(tape.gradient(y, x0))

x = tf.Variable([2., 2.])
y = tf.Variable(3.)
with tf.GradientTape() as tape:
  z = y**2
print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
  y = x * x
tape.gradient(y, x)
try:
  tape.gradient(y, x)
except RuntimeError as e:
  print(type(e).__name__, e)

x = tf.constant(10)
with tf.GradientTape() as g:
  g.watch(x)
  y = x * x
print(g.gradient(y, x))
