# ruff: noqa
# "Basic training loops" (TensorFlow guide), the tf.Module model; noise from a seeded NumPy
# generator so that both libraries see the same data.
import numpy as np
import tensorflow as tf

TRUE_W = 3.0
TRUE_B = 2.0
NUM_EXAMPLES = 201
x = tf.linspace(-2, 2, NUM_EXAMPLES)
x = tf.cast(x, tf.float32)

def f(x):
  return x * TRUE_W + TRUE_B

noise = tf.constant(np.random.RandomState(0).normal(size=NUM_EXAMPLES).astype(np.float32))
y = f(x) + noise

class MyModel(tf.Module):
  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.w = tf.Variable(5.0)
    self.b = tf.Variable(0.0)

  def __call__(self, x):
    return self.w * x + self.b

model = MyModel()
print("Variables:", model.variables)
assert model(3.0).numpy() == 15.0

def loss(target_y, predicted_y):
  return tf.reduce_mean(tf.square(target_y - predicted_y))

print("Current loss: %1.6f" % loss(y, model(x)).numpy())

def train(model, x, y, learning_rate):
  with tf.GradientTape() as t:
    current_loss = loss(y, model(x))
  dw, db = t.gradient(current_loss, [model.w, model.b])
  model.w.assign_sub(learning_rate * dw)
  model.b.assign_sub(learning_rate * db)

model = MyModel()
epochs = range(10)

def report(model, loss):
  return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"

def training_loop(model, x, y, step):
  for epoch in epochs:
    step(model, x, y, learning_rate=0.1)
    current_loss = loss(y, model(x))
    print(f"Epoch {epoch:2d}:")
    print("    ", report(model, current_loss))

current_loss = loss(y, model(x))
print("Starting:")
print("    ", report(model, current_loss))
training_loop(model, x, y, train)
print("Current loss: %1.6f" % loss(model(x), y).numpy())

# The same training step as a tf.function: one trace, the backward ops in its graph.
model = MyModel()
train_step = tf.function(train)
training_loop(model, x, y, train_step)
print("Traces:", train_step.experimental_get_tracing_count())
