"""The PyFlink tutorial programs of examples/python, run as they are (python3 <file>) on their own
embedded clusters: what they print themselves and what the print connector writes to their
standard output (the workers inherit it) are checked separately, each in its order."""

import os
import re
import subprocess
import sys


EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "examples", "python")
SINK_LINE = re.compile(r"^[+-][IUD]\[")


def run_example(name, bin_dir, build_dir, tmp_path):
    env = dict(os.environ)
    env.pop("EDDY_COORDINATOR", None)
    env["EDDY_BIN_DIR"] = bin_dir
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(build_dir, "python"),
         os.path.join(os.path.dirname(EXAMPLES), "..", "client", "python")])
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)],
                       cwd=str(tmp_path),
                       env=env,
                       capture_output=True,
                       text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    own = [l for l in lines if not SINK_LINE.match(l)]
    sink = [l for l in lines if SINK_LINE.match(l)]
    return own, sink


def test_common_structure(bin_dir, build_dir, tmp_path):
    own, sink = run_example("common_structure.py", bin_dir, build_dir, tmp_path)
    assert own == []
    ids = [int(re.match(r"\+I\[(\d+), \w{100}\]$", l).group(1)) for l in sink]
    # select(id + 1, data), then INSERT ... SELECT * : two jobs one after the other.
    assert ids == list(range(2, 12)) + list(range(1, 11))


def test_create_tables(bin_dir, build_dir, tmp_path):
    own, sink = run_example("create_tables.py", bin_dir, build_dir, tmp_path)
    assert sink == []
    assert own == [
        "   _1     _2", "0   1     Hi", "1   2  Hello",
        "   id   data", "0   1     Hi", "1   2  Hello",
        'By default the type of the "id" column is int64.',
        'Now the type of the "id" column is int8.',
        "   id  data", "0   1     4", "1   2     5", "2   3     6",
        "   id   data", "0   1     Hi", "1   2  Hello",
    ]


def test_write_queries(bin_dir, build_dir, tmp_path):
    own, sink = run_example("write_queries.py", bin_dir, build_dir, tmp_path)
    assert own == [
        "   name  rev_sum", "0  Jack       30",
        "   id  data", "0   1     4", "1   2     5", "2   3     6", "3   4     7",
    ]
    # id / 2 of 1..8 with data 4..11, ids above 1: (2: 7+8), (3: 9+10), (4: 11).
    assert sink == ["+I[2, 7]", "-U[2, 7]", "+U[2, 15]", "+I[3, 9]", "-U[3, 9]", "+U[3, 19]",
                    "+I[4, 11]", "+I[1, Hi]", "+I[2, Hello]"]


def test_emit_results(bin_dir, build_dir, tmp_path):
    own, sink = run_example("emit_results.py", bin_dir, build_dir, tmp_path)
    assert own == ["<Row(2, 'Hi', 'Hello')>", "<Row(3, 'Hello', 'Hello')>",
                   "   id   data", "0   1     Hi", "1   2  Hello"]
    # execute_insert, INSERT ... SELECT, then the statement set's two sinks.
    assert sink[:4] == ["+I[1, Hi]", "+I[2, Hello]", "+I[1, Hi]", "+I[2, Hello]"]
    assert sorted(sink[4:]) == ["+I[1, Hi]", "+I[1, Hi]", "+I[2, Hello]", "+I[2, Hello]"]


def test_explain_tables(bin_dir, build_dir, tmp_path):
    own, sink = run_example("explain_tables.py", bin_dir, build_dir, tmp_path)
    assert sink == []
    text = "\n".join(own)
    assert text.count("== Abstract Syntax Tree ==") == 2
    assert text.count("== Optimized Execution Plan ==") == 2
    assert "LogicalUnion(all=[true])" in text
    assert "LogicalFilter(condition=[LIKE($1, 'H%')])" in text
    assert "LogicalSink(table=[default_catalog.default_database.print_sink_table]" in text
    assert "Sink(table=[default_catalog.default_database.black_hole_sink_table]" in text
    assert "Reused(reference_id=[1])" in text
