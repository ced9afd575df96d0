-- The scheduler asks, after every request, for the earliest due push work, and each tick for
-- the apps that have some. Without an index on pending deliveries alone, both scanned every
-- delivery ever made (300 000 rows after three broadcasts over 100 000 devices).
CREATE INDEX push_deliveries_pending_due ON push_deliveries (expires_at) WHERE status = 'pending';
