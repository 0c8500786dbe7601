-- Insurance claims: per product and 10-minute window, how many claims, how many flagged as fraud,
-- and the average claim amount. Claims may arrive up to one minute out of order (claim 14 comes
-- after claim 13, which happened 30 seconds later); the watermark, one minute behind the latest
-- claim, waits for them. A window's results print once the watermark passes its end.
--
--   build/bin/eddy -f examples/insurance_claims.sql
--
-- (run from the repository root: the claims file is read relative to the working directory,
-- which is what eddy allows the filesystem connector to read by default).

CREATE TABLE claims (
  claim_id BIGINT,
  product STRING,
  claim_time TIMESTAMP(3),
  claim_amount DECIMAL(10, 2),
  is_fraud BOOLEAN,
  WATERMARK FOR claim_time AS claim_time - INTERVAL '1' MINUTE
) WITH (
  'connector' = 'filesystem',
  'path' = 'examples/data/claims.csv',
  'format' = 'csv',
  'csv.ignore-first-line' = 'true'
);

CREATE TABLE claim_stats (
  product STRING,
  window_start TIMESTAMP(3),
  window_end TIMESTAMP(3),
  claims BIGINT,
  fraud_claims INT,
  avg_amount DECIMAL(18, 2)
) WITH ('connector' = 'print');

INSERT INTO claim_stats
SELECT product, window_start, window_end,
       COUNT(*) AS claims,
       SUM(CASE WHEN is_fraud THEN 1 ELSE 0 END) AS fraud_claims,
       AVG(claim_amount) AS avg_amount
FROM TABLE(TUMBLE(TABLE claims, DESCRIPTOR(claim_time), INTERVAL '10' MINUTES))
GROUP BY window_start, window_end, product;
