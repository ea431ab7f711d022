"""`tf.data.experimental`: the names TensorFlow keeps there (most are methods of Dataset now,
offered as `dataset.apply(...)` transformations)."""

from __future__ import annotations

from .. import dtypes as _d
from .checking import _AssertCardinalityDataset
from .choosing import choose_from_datasets, sample_from_datasets
from .choosing import rejection_resample as _rejection_resample
from .csv_dataset import CsvDatasetV2 as CsvDataset
from .csv_dataset import make_csv_dataset
from .dataset import AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, DatasetV2
from .optional import Optional
from .options import (
    AutoShardPolicy,
    AutotuneOptions,
    DistributeOptions,
    ExternalStatePolicy,
    OptimizationOptions,
    ThreadingOptions,
)
from .storage import load as _load
from .storage import save as _save
from .tfrecord import DatasetTFRecordWriter as TFRecordWriter

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Counter", "cardinality",
           "assert_cardinality", "sample_from_datasets", "choose_from_datasets",
           "rejection_resample", "enumerate_dataset", "get_single_element", "group_by_window",
           "bucket_by_sequence_length", "ignore_errors", "parallel_interleave", "scan",
           "shuffle_and_repeat", "unbatch", "unique", "take_while", "dense_to_ragged_batch",
           "Optional", "AutoShardPolicy", "AutotuneOptions", "DistributeOptions",
           "ExternalStatePolicy", "OptimizationOptions", "ThreadingOptions", "save", "load",
           "copy_to_device", "prefetch_to_device", "CsvDataset", "make_csv_dataset",
           "TFRecordWriter"]


def Counter(start=0, step=1, dtype=_d.int64, name=None):  # noqa: N802 - TensorFlow's name
    """`tf.data.experimental.Counter`: start, start + step, ... forever."""
    return DatasetV2.counter(start, step, dtype, name)


def cardinality(dataset):
    """`tf.data.experimental.cardinality`: a scalar int64 tensor (INFINITE/UNKNOWN too)."""
    return dataset.cardinality()


def assert_cardinality(expected_cardinality):
    return lambda dataset: _AssertCardinalityDataset(dataset, expected_cardinality)


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    return lambda dataset: _rejection_resample(dataset, class_func, target_dist, initial_dist,
                                               seed)


def enumerate_dataset(start=0):
    return lambda dataset: dataset.enumerate(start)


def get_single_element(dataset):
    return dataset.get_single_element()


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    return lambda dataset: dataset.group_by_window(key_func, reduce_func, window_size,
                                                   window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes,
                              padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    return lambda dataset: dataset.bucket_by_sequence_length(
        element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes,
        padding_values, pad_to_bucket_boundary, no_padding, drop_remainder)


def ignore_errors(log_warning=False):
    return lambda dataset: dataset.ignore_errors(log_warning)


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length,
                                              num_parallel_calls=cycle_length,
                                              deterministic=not sloppy)


def scan(initial_state, scan_func):
    return lambda dataset: dataset.scan(initial_state, scan_func)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def unbatch():
    return lambda dataset: dataset.unbatch()


def unique():
    return lambda dataset: dataset.unique()


def take_while(predicate):
    return lambda dataset: dataset.take_while(predicate)


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=_d.int64):
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


def copy_to_device(target_device, source_device="/cpu:0"):
    """Everything runs on the CPU: the dataset itself."""
    return lambda dataset: dataset


def prefetch_to_device(device, buffer_size=None):
    return lambda dataset: dataset.prefetch(buffer_size if buffer_size is not None else
                                            AUTOTUNE)


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    return _save(dataset, path, compression, shard_func, checkpoint_args)


def load(path, element_spec=None, compression=None, reader_func=None):
    return _load(path, element_spec, compression, reader_func)
