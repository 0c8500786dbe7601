#!/usr/bin/env bash
# Throughput of kafka -> keyed aggregation -> upsert-kafka against eddy-kafka-mock, for
# docs/performance.md. Fills a topic with ROWS JSON records (a datagen job writing to Kafka), then
# times a bounded job that reads them, counts and sums per key and writes the totals to an
# upsert-kafka topic, on an embedded cluster of one worker. Prints rows/s and rows/s per core
# (per subtask of the job: PARALLELISM), and the same for reading the topic into a blackhole.
#
# Usage: bench/kafka_bench.sh [ROWS] [PARALLELISM] [BUILD_DIR]    (defaults: 2000000 1 build)
set -euo pipefail

rows="${1:-2000000}"
parallelism="${2:-1}"
build="${3:-build}"
partitions=4
keys=10000

work="$(mktemp -d)"
trap 'kill "$mock_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
"$build/bin/eddy-kafka-mock" --brokers 1 --topic bench-in:$partitions --topic bench-out:$partitions \
  >"$work/mock.out" 2>"$work/mock.err" &
mock_pid=$!
for _ in $(seq 100); do
  [[ -s "$work/mock.out" ]] && break
  sleep 0.1
done
bootstrap="$(head -n 1 "$work/mock.out")"
[[ -n "$bootstrap" ]] || { echo "kafka_bench: eddy-kafka-mock did not start" >&2; exit 1; }

input="'connector' = 'kafka', 'topic' = 'bench-in', 'properties.bootstrap.servers' = '$bootstrap', 'format' = 'json'"
output="'connector' = 'upsert-kafka', 'topic' = 'bench-out', 'properties.bootstrap.servers' = '$bootstrap', 'key.format' = 'json', 'value.format' = 'json'"

"$build/bin/eddy" --workers 1 --slots 4 -e "
SET 'parallelism.default' = '$partitions';
CREATE TABLE gen (k BIGINT, v BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '$rows',
  'fields.k.min' = '1', 'fields.k.max' = '$keys', 'fields.v.min' = '1', 'fields.v.max' = '1000');
CREATE TABLE claims (k BIGINT, v BIGINT) WITH ($input);
INSERT INTO claims SELECT k, v FROM gen;" >/dev/null 2>"$work/fill.err" ||
  { cat "$work/fill.err" >&2; exit 1; }

# The source alone: the same records into a blackhole.
start=$(date +%s.%N)
"$build/bin/eddy" --workers 1 --slots 4 -e "
SET 'parallelism.default' = '$parallelism';
CREATE TABLE claims (k BIGINT NOT NULL, v BIGINT) WITH ($input, 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset');
CREATE TABLE sink (k BIGINT, v BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO sink SELECT k, v FROM claims;" >/dev/null 2>"$work/read.err" ||
  { cat "$work/read.err" >&2; exit 1; }
end=$(date +%s.%N)
awk -v rows="$rows" -v p="$parallelism" -v s="$start" -v e="$end" 'BEGIN {
  t = e - s
  printf "kafka -> blackhole: %d rows in %.2f s: %.0f rows/s, %.0f rows/s per core (parallelism %d)\n", rows, t, rows / t, rows / t / p, p
}'

start=$(date +%s.%N)
"$build/bin/eddy" --workers 1 --slots 4 -e "
SET 'parallelism.default' = '$parallelism';
CREATE TABLE claims (k BIGINT NOT NULL, v BIGINT) WITH ($input, 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset');
CREATE TABLE totals (k BIGINT, n BIGINT, s BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ($output);
INSERT INTO totals SELECT k, COUNT(*), SUM(v) FROM claims GROUP BY k;" >/dev/null 2>"$work/run.err" ||
  { cat "$work/run.err" >&2; exit 1; }
end=$(date +%s.%N)

awk -v rows="$rows" -v p="$parallelism" -v s="$start" -v e="$end" 'BEGIN {
  t = e - s
  printf "kafka -> GROUP BY -> upsert-kafka: %d rows in %.2f s: %.0f rows/s, %.0f rows/s per core (parallelism %d)\n", rows, t, rows / t, rows / t / p, p
}'
