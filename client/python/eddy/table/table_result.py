"""What execute_sql, Table.execute and execute_insert return, as PyFlink's TableResult: the
statement's kind, the job of an INSERT or query (get_job_client), a query's rows as they come
(collect, a context manager that cancels the query when left early) or printed exactly as the
shell prints them (print), and wait() for a job.
"""

import enum
import sys
import time

from eddy.client import FINAL_JOB_STATUSES, client_pb2
from eddy.table import value_format as vf
from eddy.table.batch_decoder import decode_batch
from eddy.table.result_printer import format_text_table, make_result_printer
from eddy.table.row import Row, RowKind
from eddy.table.types import DataTypes, type_from_proto
from eddy.util.exceptions import JobExecutionException, JobTimeoutException, TableException

_Kind = client_pb2.ExecuteStatementResponse
# One FetchResults waits at most this long for rows, so a caller is never stuck in one call.
_FETCH_WAIT_MS = 200
# wait() without a timeout asks the coordinator in steps of this long.
_WAIT_STEP_MS = 60000


class ResultKind(enum.Enum):
    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1


class JobStatus(enum.Enum):
    """A job's status (proto/eddy/v1/client.proto JobStatus)."""
    UNKNOWN = 0
    CREATED = 1
    RUNNING = 2
    FINISHED = 3
    FAILED = 4
    CANCELED = 5
    RESTARTING = 6

    def is_globally_terminal_state(self):
        return self in (JobStatus.FINISHED, JobStatus.FAILED, JobStatus.CANCELED)


class TableSchema:
    """The columns of a result: names and DataTypes (and the wire types of a query's columns)."""

    def __init__(self, names, data_types, wire_types=None):
        self._names = list(names)
        self._types = list(data_types)
        self._wire_types = wire_types

    @classmethod
    def of_wire_fields(cls, fields):
        return cls([f.name for f in fields], [type_from_proto(f.type) for f in fields],
                   [f.type for f in fields])

    def get_field_names(self):
        return list(self._names)

    def get_field_data_types(self):
        return list(self._types)

    def get_field_count(self):
        return len(self._names)

    def __repr__(self):
        return "root\n" + "".join(" |-- %s: %s\n" % (n, t.sql())
                                  for n, t in zip(self._names, self._types))


def _raise_for_final(info):
    if info.status == client_pb2.JOB_STATUS_FAILED:
        raise JobExecutionException("Job %s failed: %s" % (info.job_id, info.error))
    if info.status == client_pb2.JOB_STATUS_CANCELED:
        raise JobExecutionException("Job %s was cancelled" % info.job_id)


class JobClient:
    """The job of an INSERT, a statement set or a query, as PyFlink's JobClient."""

    def __init__(self, client, job_id):
        self._client = client
        self._job_id = job_id

    def get_job_id(self):
        return self._job_id

    def get_job_status(self):
        return JobStatus(self._client.get_job(self._job_id).status)

    def get_job_info(self):
        """The coordinator's eddy.v1.JobInfo (status, error, per-node row counts, checkpoints)."""
        return self._client.get_job(self._job_id)

    def cancel(self):
        self._client.cancel_job(self._job_id)

    def wait(self, timeout_ms=None):
        """Waits for the job to end: returns once it finished; raises JobExecutionException when
        it failed or was cancelled, JobTimeoutException when still running after timeout_ms."""
        deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000.0
        while True:
            step = _WAIT_STEP_MS
            if deadline is not None:
                step = max(0, min(step, int((deadline - time.monotonic()) * 1000)))
            info = self._client.get_job(self._job_id, wait_timeout_ms=max(step, 1))
            if info.status in FINAL_JOB_STATUSES:
                _raise_for_final(info)
                return
            if deadline is not None and time.monotonic() >= deadline:
                raise JobTimeoutException("Job %s still running after %d ms" %
                                          (self._job_id, timeout_ms))

    def get_job_execution_result(self):
        self.wait()
        return self


class CloseableIterator:
    """A query's changes in order, each a Row with its RowKind. Leaving it before the end (close(),
    the end of a `with` block, or garbage collection) cancels the query's job."""

    def __init__(self, client, job_id, limit):
        self._client = client
        self._job_id = job_id
        self._limit = limit
        self._delivered = 0
        self._kinds = []
        self._rows = []
        self._next = 0
        self._ended = False
        self._closed = False

    def __iter__(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def close(self):
        """Cancels the query if its rows were not all read."""
        if self._closed:
            return
        self._closed = True
        if not self._ended:
            self._ended = True
            self._client.cancel_job(self._job_id)

    def _fetch(self):
        """Asks for more rows once (waiting up to 200 ms); False when there are none yet."""
        try:
            r = self._client.fetch_results(self._job_id, _FETCH_WAIT_MS)
        except TableException:
            self._ended = self._closed = True  # the job failed or is gone: nothing to cancel
            raise
        self._kinds, self._rows, self._next = [], [], 0
        for batch in r.batches:
            kinds, rows = decode_batch(batch)
            self._kinds += kinds
            self._rows += rows
        if r.end:
            self._ended = True
        return bool(self._rows)

    def try_next(self):
        """The next row, None when none arrived within one fetch, or StopIteration at the end."""
        if self._limit is not None and self._delivered >= self._limit:
            self.close()
            raise StopIteration
        if self._next >= len(self._rows):
            if self._ended or self._closed:
                self._closed = True
                raise StopIteration
            if not self._fetch():
                if self._ended:
                    self._closed = True
                    raise StopIteration
                return None
        i = self._next
        self._next += 1
        self._delivered += 1
        return Row.of(self._rows[i], RowKind(self._kinds[i]))

    def has_buffered_row(self):
        return self._next < len(self._rows)

    def __next__(self):
        while True:
            row = self.try_next()
            if row is not None:
                return row


class _RowsAtHand:
    """collect() of a statement whose result came with its answer (SHOW, EXPLAIN, DDL)."""

    def __init__(self, rows):
        self._rows = iter(rows)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._rows)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


class TableResult:

    def __init__(self, client, response):
        self._client = client
        self._response = response
        self._rows = None  # the query's CloseableIterator, once made

    def get_result_kind(self):
        k = self._response.kind
        return ResultKind.SUCCESS if k in (_Kind.OK, _Kind.JOB_SUBMITTED) else \
            ResultKind.SUCCESS_WITH_CONTENT

    def get_response(self):
        """The coordinator's eddy.v1.ExecuteStatementResponse."""
        return self._response

    def get_job_client(self):
        """The JobClient of an INSERT, statement set or query; None for other statements."""
        if not self._response.job_id:
            return None
        return JobClient(self._client, self._response.job_id)

    def get_table_schema(self):
        if self._response.kind == _Kind.QUERY:
            return TableSchema.of_wire_fields(self._response.result_schema.fields)
        if self._response.kind == _Kind.TABLE:
            names = list(self._response.table.column_names)
            return TableSchema(names, [DataTypes.STRING()] * len(names))
        return TableSchema([], [])

    def _iterator(self):
        if self._response.kind != _Kind.QUERY:
            raise TableException("only a query's result has rows to collect (this statement "
                                 "answered %s)" % _Kind.Kind.Name(self._response.kind))
        if self._rows is None:
            limit = self._response.limit if self._response.HasField("limit") else None
            self._rows = CloseableIterator(self._client, self._response.job_id, limit)
        return self._rows

    def collect(self):
        """The query's rows as a CloseableIterator (use it in a `with` block). Other statements,
        as PyFlink: a SHOW/DESCRIBE/SET table's rows (cells as text), `Row('OK')` for DDL and SET,
        the plan text of EXPLAIN; an INSERT's job has no rows (wait() for it)."""
        k = self._response.kind
        if k == _Kind.TABLE:
            return _RowsAtHand([Row.of(tuple(r.cells)) for r in self._response.table.rows])
        if k == _Kind.OK:
            return _RowsAtHand([Row.of(("OK",))])
        if k in (_Kind.EXPLAIN, _Kind.TEXT):
            return _RowsAtHand([Row.of((self._response.message,))])
        return self._iterator()

    def wait(self, timeout_ms=None):
        """INSERT / statement set: waits for the job to finish (JobClient.wait). Query: waits until
        its first row is here or it ended. Other statements: returns at once."""
        if self._response.kind == _Kind.QUERY:
            rows = self._iterator()
            deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000.0
            while not rows.has_buffered_row() and not rows._ended:
                if deadline is not None and time.monotonic() >= deadline:
                    raise JobTimeoutException("no row of job %s within %d ms" %
                                              (self._response.job_id, timeout_ms))
                rows._fetch()
            return
        if self._response.job_id:
            JobClient(self._client, self._response.job_id).wait(timeout_ms)

    def print(self, out=None):
        """Prints the result exactly as the shell does (client/table_result.cc): a query in the
        session's result mode, to its end; tables, plans and messages; a job's id."""
        out = out or sys.stdout
        k = self._response.kind
        if k == _Kind.QUERY:
            fields = [(f.name, f.type) for f in self._response.result_schema.fields]
            printer = make_result_printer(self._response.result_mode, fields, out,
                                          self._response.batch,
                                          self._response.max_column_width,
                                          self._response.max_table_rows)
            ltz = [i for i, (_, t) in enumerate(fields) if t.id == vf.TIMESTAMP_LTZ]
            zone = vf.time_zone(self._response.local_time_zone)
            rows = self._iterator()
            printer.begin()
            try:
                while True:
                    try:
                        row = rows.try_next()
                    except StopIteration:
                        break
                    if row is None:
                        printer.flush()
                        continue
                    kind = row.get_row_kind().value
                    if ltz:  # shown as the session zone's wall clock, as the shell does
                        row = list(row)
                        for c in ltz:
                            if row[c] is not None:
                                row[c] = vf.in_zone(row[c], zone)
                    printer.add(kind, row)
            except BaseException:
                rows.close()
                raise
            printer.end()
        elif k == _Kind.TABLE:
            out.write(format_text_table(self._response.table))
        elif k in (_Kind.EXPLAIN, _Kind.TEXT):
            out.write(self._response.message)
        elif k == _Kind.JOB_SUBMITTED:
            out.write("Job ID: %s\n" % self._response.job_id)
        else:
            out.write(self._response.message + "\n")
        out.flush()
