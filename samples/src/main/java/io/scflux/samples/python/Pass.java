/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.python;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * One piece of work of a {@link Session} running off the caller's thread: a step, a write, a collection of X.
 * Python waits for it in slices ({@link #waitFor}) instead of one blocking call, so that the interpreter sees Ctrl-C
 * between two slices and {@link #cancel}s it; a cancelled pass stops at the next block and leaves what it was given
 * as it was (a write removes its temporary file).
 */
public final class Pass {

    private final CompletableFuture<Object> future;

    private Pass(CompletableFuture<Object> future) {
        this.future = future;
    }

    /**
     * Subscribes to {@code work} on a worker thread now.
     *
     * @param work the work, emitting its result (or completing empty for none)
     * @return the pass running it
     */
    static Pass start(Mono<?> work) {
        return new Pass(work.map(Object.class::cast)
                .defaultIfEmpty(Boolean.TRUE)
                .subscribeOn(Schedulers.boundedElastic())
                .toFuture());
    }

    /**
     * @param millis how long to wait at most
     * @return whether the pass is over (done, failed or cancelled)
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public boolean waitFor(long millis) throws InterruptedException {
        try {
            future.get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException | CancellationException e) {
            return true;
        }
        return true;
    }

    /**
     * @return the pass's result, once {@link #waitFor} said it is over
     * @throws Throwable the error the pass failed with, as the step raised it; a {@link CancellationException} when
     *     it was cancelled
     */
    public @Nullable Object result() throws Throwable {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    /** Stops the pass: its subscription is cancelled, so no further block is read. */
    public void cancel() {
        future.cancel(true);
    }
}
