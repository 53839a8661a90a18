-- Idempotent writes (AIP-155): the first outcome of each (actor, method, request id), recorded in the
-- write's own transaction, so a retry returns it instead of writing again. Rows are small; operators may
-- delete old ones (a retry after that writes again).
CREATE TABLE write_requests (
    actor text NOT NULL,
    method text NOT NULL,
    request_id text NOT NULL CHECK (request_id ~ '^[A-Za-z0-9._:-]{1,64}$'),
    outcome jsonb NOT NULL,
    audit_id bigint NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (actor, method, request_id)
);
