/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One Server-Sent Event of a job: {@code queued}, {@code started} (it left the queue), {@code stage} (a step starts,
 * or a pass over X within it: {@link Stages}), {@code progress} (blocks done of the pass's total, rows/s, under the
 * pass's stage), then one of {@code done} (the output's name and the path of its results page), {@code failed} (the
 * error) or {@code cancelled}.
 */
record JobEvent(String name, ObjectNode data) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static JobEvent queued() {
        return new JobEvent("queued", JSON.createObjectNode());
    }

    static JobEvent started() {
        return new JobEvent("started", JSON.createObjectNode());
    }

    static JobEvent stage(String stage) {
        return new JobEvent("stage", JSON.createObjectNode().put("stage", stage));
    }

    static JobEvent progress(String stage, int blocks, int totalBlocks, long rows, double rowsPerSecond) {
        return new JobEvent(
                "progress",
                JSON.createObjectNode()
                        .put("stage", stage)
                        .put("blocks", blocks)
                        .put("totalBlocks", totalBlocks)
                        .put("rows", rows)
                        .put("rowsPerSecond", Math.round(rowsPerSecond)));
    }

    static JobEvent done(String output, String page) {
        return new JobEvent(
                "done", JSON.createObjectNode().put("output", output).put("page", page));
    }

    static JobEvent failed(String error) {
        return new JobEvent("failed", JSON.createObjectNode().put("error", error));
    }

    static JobEvent cancelled() {
        return new JobEvent("cancelled", JSON.createObjectNode());
    }

    /** The event in the {@code text/event-stream} format, blank line included. */
    String toSse() {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }
}
