package io.scflux.samples;

import io.scflux.core.Streaming;
import io.scflux.core.cache.BlockCache;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * The service's jobs by id: at most {@code maxJobs} run at once, the others wait in submission order; all their file
 * work runs on the {@code work} scheduler, their reads of X share {@code cache}.
 */
final class Jobs implements Disposable {

    private final Map<String, Job> byId = new ConcurrentHashMap<>();
    /** Ids are unique across runs of the server (its start time, then a counter): outputs are named by them. */
    private final String run = Long.toString(System.currentTimeMillis(), 36);
    private final AtomicLong ids = new AtomicLong();
    private final Sinks.Many<Job> queue = Sinks.many().unicast().onBackpressureBuffer();
    private final Disposable runner;

    Jobs(int maxJobs, Scheduler work, Streaming streaming, BlockCache cache, ServiceMetrics metrics) {
        this.runner = queue.asFlux().flatMap(job -> job.run(work, streaming, cache, metrics), maxJobs).subscribe();
    }

    /** A new job for {@code request}, queued. */
    Job submit(JobRequest request) {
        Job job = new Job(run + "-" + ids.incrementAndGet(), request);
        byId.put(job.id(), job);
        synchronized (queue) {
            queue.emitNext(job, Sinks.EmitFailureHandler.FAIL_FAST);
        }
        return job;
    }

    /** The job {@code id}, or null. */
    Job get(String id) {
        return byId.get(id);
    }

    @Override
    public void dispose() {
        byId.values().forEach(Job::cancel);
        runner.dispose();
    }
}
