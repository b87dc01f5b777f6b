-- The mail worker's lease is fenced (issue 32): each claim writes a new token, and the worker's later writes
-- (renewing, marking sent, retry or failed) name it, so a worker whose lease ran out cannot touch the row again.
ALTER TABLE "outbox" ADD COLUMN "lease_token" uuid;
