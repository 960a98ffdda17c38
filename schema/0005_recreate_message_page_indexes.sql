-- 0005_recreate_message_page_indexes: /messages pages are ordered by (created_lt, msg_hash), so the source,
-- destination and opcode indexes carry msg_hash too. With (x, created_lt) alone the planner preferred walking
-- messages_index_7 backwards and filtering, which on a million messages read every external-in first (their
-- created_lt is NULL, so they lead a descending scan): 3.8 s instead of 0.2 ms for a rare opcode (bench/v3).
-- Same names, wider keys; no data changes.

DROP INDEX messages_index_2;
CREATE INDEX messages_index_2 ON messages (source, created_lt, msg_hash);
DROP INDEX messages_index_3;
CREATE INDEX messages_index_3 ON messages (destination, created_lt, msg_hash);
DROP INDEX messages_index_6;
CREATE INDEX messages_index_6 ON messages (opcode, created_lt, msg_hash);
