/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A reduction cancelled while its source still delivers blocks already on their way (Reactive Streams rule 2.8: a
 * subscriber must take onNext after its cancel) ends quietly. Segmented with Reactor's exact window, the block after
 * a segment's last reached the window operator with no window open and failed its assertion ("window can not be
 * null", an AssertionError on the source's thread under -ea, a NullPointerException without).
 */
class ReducerCancelRaceTest {

    /** Counts blocks; the fold of {@code cancelAt} cancels the reduction from inside it. */
    private static final class Counting implements Reducer<long[]> {
        final AtomicReference<Disposable> run = new AtomicReference<>();
        final int cancelAt;

        Counting(int cancelAt) {
            this.cancelAt = cancelAt;
        }

        @Override
        public long[] identity() {
            return new long[1];
        }

        @Override
        public long[] fold(RowBlock block) {
            if (block.blockIndex() == cancelAt) {
                run.get().dispose();
            }
            return new long[] {1};
        }

        @Override
        public long[] merge(long[] earlier, long[] later) {
            earlier[0] += later[0];
            return earlier;
        }
    }

    /**
     * {@code n} empty blocks, delivered as requested; a cancel stops them only once the blocks already requested are
     * delivered (as a source whose blocks are on their way does: rule 2.8).
     */
    private static Publisher<RowBlock> finishingRequested(int n, CountDownLatch cancelSeen) {
        return (Subscriber<? super RowBlock> s) -> s.onSubscribe(new Subscription() {
            long demand;
            int next;
            boolean emitting;
            volatile boolean cancelled;

            @Override
            public synchronized void request(long more) {
                demand = demand + more < 0 ? Long.MAX_VALUE : demand + more;
                if (emitting) {
                    return;
                }
                emitting = true;
                while (demand > 0 && next < n) {
                    demand--;
                    s.onNext(RowBlock.empty(next, next, 1, 3));
                    next++;
                }
                emitting = false;
                if (next == n && !cancelled) {
                    s.onComplete();
                }
            }

            @Override
            public void cancel() {
                cancelled = true;
                cancelSeen.countDown();
            }
        });
    }

    @Test
    void blocksAfterACancelAtASegmentsEndAreDropped() throws InterruptedException {
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        try {
            for (int threads : new int[] {1, 2}) {
                int segment = Reducer.SEGMENT_BLOCKS;
                Counting counting = new Counting(segment - 1);
                CountDownLatch cancelled = new CountDownLatch(1);
                List<Throwable> errors = new CopyOnWriteArrayList<>();
                AtomicReference<long[]> result = new AtomicReference<>();
                // the fold of a segment's last block cancels: the blocks after it come all the same
                Flux<RowBlock> blocks = Flux.from(finishingRequested(3 * segment + 1, cancelled));
                BaseSubscriber<long[]> subscriber = new BaseSubscriber<>() {
                    @Override
                    protected void hookOnNext(long[] value) {
                        result.set(value);
                    }

                    @Override
                    protected void hookOnError(Throwable e) {
                        errors.add(e);
                    }
                };
                counting.run.set(subscriber);
                // the test's own workers, so that it can wait for the folds still running after the cancel
                Scheduler workers = Schedulers.newParallel("cancel-race", threads);
                try {
                    counting.reduce(blocks, Execution.threads(threads).on(workers))
                            .subscribe(subscriber);
                    assertTrue(cancelled.await(30, TimeUnit.SECONDS), threads + " threads: the source was cancelled");
                } finally {
                    workers.disposeGracefully().block(Duration.ofSeconds(30));
                }
                assertEquals(List.of(), errors, threads + " threads: no error reaches the subscriber");
                assertEquals(null, result.get(), threads + " threads: a cancelled reduction gives no result");
            }
            assertEquals(List.of(), dropped, "no error dropped");
        } finally {
            Hooks.resetOnErrorDropped();
        }
    }
}
