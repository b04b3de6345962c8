"""The workload model: a buyer's figures on a few types, predicted on every type."""
