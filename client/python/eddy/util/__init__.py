"""Helpers shared by the Table API (exceptions, as pyflink.util)."""
