-- The sessions' metadata index (GIN, migration 0025) takes each write into its own entries at once.
-- With GIN's default `fastupdate`, writes queue in a pending list that whichever write finds it
-- full (4 MB) merges into the index: about 100 ms, paid by one shopper for some forty thousand
-- others' sessions (docs/performance.md). Each write now pays for its own entries (about 5% more per
-- insert), and what is pending is merged here, once.

ALTER INDEX checkout_sessions_metadata SET (fastupdate = off);
SELECT gin_clean_pending_list('checkout_sessions_metadata'::regclass);
