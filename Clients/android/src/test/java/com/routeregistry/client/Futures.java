package com.routeregistry.client;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Waiting for work handed to a pool, so a failed assertion inside it fails the test as itself. */
final class Futures {
    private Futures() {}

    /** Waits for each (two minutes at most each); rethrows an assertion failure from inside as is. */
    static void await(List<Future<?>> futures) throws Exception {
        for (Future<?> future : futures) {
            try {
                future.get(120, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof AssertionError) throw (AssertionError) e.getCause();
                throw e;
            }
        }
    }
}
