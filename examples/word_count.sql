-- Word count, the classic streaming aggregation, and an aggregate over its changelog.
-- Q1 counts words; Q2 counts how many words have each count, which needs Q1's -U rows.

CREATE TEMPORARY VIEW words AS
SELECT * FROM (VALUES ('a'), ('a'), ('b'), ('a'), ('c'), ('b')) AS t(word);

CREATE TABLE word_counts (word STRING, cnt BIGINT) WITH ('connector' = 'print');
CREATE TABLE count_histogram (cnt BIGINT, num_words BIGINT) WITH ('connector' = 'print');

-- Q1
INSERT INTO word_counts
SELECT word, COUNT(*) AS cnt FROM words GROUP BY word;

-- Q2
INSERT INTO count_histogram
SELECT cnt, COUNT(*) AS num_words
FROM (SELECT word, COUNT(*) AS cnt FROM words GROUP BY word)
GROUP BY cnt;
