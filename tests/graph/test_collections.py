"""TF1's graph collections on tracegraph's Graph, and `as_default()` giving the graph."""

import tracegraph as tf


def test_collections():
    g = tf.Graph()
    g.add_to_collection("losses", 1)
    g.add_to_collections(["losses", "other"], 2)
    assert g.get_collection("losses") == [1, 2] and g.get_collection("other") == [2]
    ref = g.get_collection_ref("losses")
    ref.append(3)
    assert g.get_collection("losses") == [1, 2, 3]
    copy = g.get_collection("losses")
    copy.append(4)
    assert g.get_collection("losses") == [1, 2, 3]
    assert sorted(g.get_all_collection_keys()) == ["losses", "other"]
    g.clear_collection("other")
    assert g.get_collection("other") == [] and g.get_all_collection_keys() == ["losses"]


def test_collection_scope_filters_by_name():
    g = tf.Graph()
    with g.as_default() as entered:
        assert entered is g
        a = tf.Variable(1.0, name="layer/a")
        tf.Variable(2.0, name="other/b")
    assert g.get_collection("variables", scope="layer") == [a]
    assert not g.building_function and tf.FuncGraph("f").building_function
