-- routereg: expand
-- The App Store Connect provider token (`pt`) of an app's iOS side (issue 45): App Analytics attributes a store
-- link's campaign (`ct`) only with it. A nullable column the previous release neither reads nor writes: during a
-- rolling upgrade its servers build store links without `pt`, and its Apps.Update leaves the column as it was.
ALTER TABLE apps ADD COLUMN ios_app_store_provider_token text
    CHECK (ios_app_store_provider_token IS NULL OR ios_app_store_provider_token ~ '^[0-9]{1,12}$');
