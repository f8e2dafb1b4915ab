/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.netty.channel.Channel;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The service's open connections, at most {@code max}, so that clients cannot take all of the process's descriptors
 * (1,100 connections that sent nothing left none for the files of jobs, and the token holder's requests timed out).
 * A connection over the cap closes the one that has waited longest for a request (a client that connected and sent
 * nothing, or an idle keep-alive one, which HTTP lets a server close), so that connections holding nothing cannot keep
 * out a client that has something to ask; only when every connection has a request under way (a job's events, a
 * download) is the new one closed at once. Shared by the event loops: its state is concurrent.
 */
final class Connections {

    private final int max;
    private final Set<Channel> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger count = new AtomicInteger();
    /** The connections waiting for a request's head, with the {@link System#nanoTime} they began waiting. */
    private final Map<Channel, Long> waiting = new ConcurrentHashMap<>();

    /** At most {@code max} connections open at once. */
    Connections(int max) {
        this.max = max;
    }

    /**
     * Counts {@code channel}, newly open, closing the connection waiting longest for a request when that makes one
     * more than the cap; returns false, counting nothing, when every other connection has a request under way (the
     * caller closes {@code channel}). A connection counted is forgotten when it closes.
     */
    boolean admit(Channel channel) {
        if (count.incrementAndGet() > max && !evictOneWaiting()) {
            count.decrementAndGet();
            return false;
        }
        open.add(channel);
        channel.closeFuture().addListener(f -> release(channel));
        return true;
    }

    /** Marks {@code channel} waiting for a request's head ({@code waits}) or reading and answering one. */
    void waiting(Channel channel, boolean waits) {
        if (waits && open.contains(channel)) {
            waiting.put(channel, System.nanoTime());
        } else {
            waiting.remove(channel);
        }
    }

    /** The connections counted now. */
    int count() {
        return count.get();
    }

    /** Closes the connection that has waited longest for a request; false when none waits. */
    private boolean evictOneWaiting() {
        while (true) {
            Map.Entry<Channel, Long> oldest = null;
            for (Map.Entry<Channel, Long> e : waiting.entrySet()) {
                if (oldest == null || e.getValue() - oldest.getValue() < 0) {
                    oldest = e;
                }
            }
            if (oldest == null) {
                return false;
            }
            Channel victim = oldest.getKey();
            if (waiting.remove(victim, oldest.getValue()) && release(victim)) {
                victim.close();
                return true;
            }
        }
    }

    /** Forgets {@code channel}; false when it was already forgotten (closed, or evicted by another loop). */
    private boolean release(Channel channel) {
        waiting.remove(channel);
        if (open.remove(channel)) {
            count.decrementAndGet();
            return true;
        }
        return false;
    }
}
