"""Eddy's Table API for Python, in the shape of pyflink.table: a PyFlink Table API program runs
against an Eddy cluster with its imports changed from pyflink.table to eddy.table.
Reference: docs/python-api.md.
"""

from eddy.table.environment_settings import EnvironmentSettings
from eddy.table.expression import Expression
from eddy.table.row import Row, RowKind
from eddy.table.statement_set import StatementSet
from eddy.table.table import ExplainDetail, GroupedTable, Table
from eddy.table.table_config import TableConfig
from eddy.table.table_environment import TableEnvironment
from eddy.table.table_result import (CloseableIterator, JobClient, JobStatus, ResultKind,
                                     TableResult, TableSchema)
from eddy.table.types import DataTypes

__all__ = [
    "CloseableIterator", "DataTypes", "EnvironmentSettings", "ExplainDetail", "Expression",
    "GroupedTable", "JobClient", "JobStatus", "ResultKind", "Row", "RowKind", "StatementSet",
    "Table", "TableConfig", "TableEnvironment", "TableResult", "TableSchema"
]
