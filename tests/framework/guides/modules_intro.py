# ruff: noqa
# "Introduction to modules, layers, and models" (TensorFlow guide), the tf.Module part.
import tensorflow as tf

class SimpleModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.a_variable = tf.Variable(5.0, name="train_me")
    self.non_trainable_variable = tf.Variable(5.0, trainable=False, name="do_not_train_me")
  def __call__(self, x):
    return self.a_variable * x + self.non_trainable_variable

simple_module = SimpleModule(name="simple")
print(simple_module(tf.constant(5.0)))
print("trainable variables:", simple_module.trainable_variables)
print("all variables:", simple_module.variables)

class Dense(tf.Module):
  def __init__(self, in_features, out_features, name=None):
    super().__init__(name=name)
    self.w = tf.Variable(
      tf.ones([in_features, out_features]), name='w')
    self.b = tf.Variable(tf.zeros([out_features]), name='b')
  def __call__(self, x):
    y = tf.matmul(x, self.w) + self.b
    return tf.nn.relu(y)

class SequentialModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.dense_1 = Dense(in_features=3, out_features=3)
    self.dense_2 = Dense(in_features=3, out_features=2)
  def __call__(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

my_model = SequentialModule(name="the_model")
print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])))
print("Submodules:", len(my_model.submodules), [m.name for m in my_model.submodules])
for var in my_model.variables:
  print(var, "\n")

class FlexibleDenseModule(tf.Module):
  def __init__(self, out_features, name=None):
    super().__init__(name=name)
    self.is_built = False
    self.out_features = out_features
  def __call__(self, x):
    if not self.is_built:
      self.w = tf.Variable(
        tf.ones([x.shape[-1], self.out_features]), name='w')
      self.b = tf.Variable(tf.zeros([self.out_features]), name='b')
      self.is_built = True
    y = tf.matmul(x, self.w) + self.b
    return tf.nn.relu(y)

class MySequentialModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.dense_1 = FlexibleDenseModule(out_features=3)
    self.dense_2 = FlexibleDenseModule(out_features=2)
  def __call__(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

my_model = MySequentialModule(name="the_model")
print("Model results:", my_model(tf.constant([[2.0, 2.0, 2.0]])))

class MyTfModule(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.dense_1 = Dense(in_features=3, out_features=3)
    self.dense_2 = Dense(in_features=3, out_features=2)
  @tf.function
  def __call__(self, x):
    x = self.dense_1(x)
    return self.dense_2(x)

my_model = MyTfModule(name="the_model")
print(my_model([[2.0, 2.0, 2.0]]))
print(my_model([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]))

class Nested(tf.Module):
  def __init__(self):
    super().__init__()
    self.layers = [Dense(2, 2), {"k": Dense(2, 1), "a": (tf.Variable(1.0, name="t"),)}]
    self.name_check = tf.Variable(0, trainable=False, name="counter")
n = Nested()
print(n.name, [m.name for m in n.submodules], [v.name for v in n.variables])
print([v.name for v in n.trainable_variables], [v.name for v in n.non_trainable_variables])
class Scoped(tf.Module):
  @tf.Module.with_name_scope
  def __call__(self, x):
    return x * 2
print(Scoped()(tf.constant(3.0)), Scoped(name="abc").name_scope.name)
