/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Backend;
import io.scflux.core.BlockSource;
import io.scflux.core.HostBackend;
import io.scflux.core.PlacedSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.Resident;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Logs;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.RecordingBackend;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The backend rule of a concatenation, with a test double device whose blocks are resident and which records every
 * upload, download and re-index: inputs all on the device are re-indexed there and never downloaded until a host
 * consumer reads the result; with mixed backends only the other inputs' blocks move, to the first input's backend,
 * said once. The blocks are the host path's, bit for bit, and a dense stack's.
 */
class ConcatBackendTest {

    private static final CsrMatrix A = Matrices.random(40, 10, 0.3, 1);
    private static final CsrMatrix EMPTY = Matrices.random(0, 7, 0.3, 3);
    private static final CsrMatrix B = Matrices.random(25, 7, 0.3, 2);
    private static final PlanTarget TARGET = BlockSize.TINY.target();
    private static final Streaming STREAMING =
            Streaming.DEFAULT.withTarget(TARGET).withThreads(2);

    /** Outer join onto 14 columns, B's columns reversed (rows sorted) and filled with -1; A shifted (merged). */
    private static final List<int[]> OUTER = Arrays.asList(
            new int[] {2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
            new int[] {6, 5, 4, 3, 2, 1, 0},
            new int[] {13, 12, 11, 10, 1, 0, 4},
            null);
    /** Inner join onto A's columns 1, 3, 5, 7 (B's 6, 4, 2, 0 in reverse), with an input kept as it is. */
    private static final List<int[]> INNER = Arrays.asList(
            new int[] {-1, 0, -1, 1, -1, 2, -1, 3, -1, -1},
            new int[] {3, -1, 2, -1, 1, -1, 0},
            new int[] {3, -1, 2, -1, 1, -1, 0},
            null);

    private final RecordingBackend device = RecordingDevice.of("double");
    /** What the concatenation logs when it moves blocks between backends. */
    private static final String MOVING = "concatenated data are on backends ";

    private static List<CsrMatrix> inputs(CsrMatrix last) {
        return List.of(A, EMPTY, B, last);
    }

    private ConcatSource concat(List<BlockSource> inputs, List<int[]> maps, int nCols, float fill) {
        return ConcatSource.of(inputs, maps, nCols, fill);
    }

    /** The blocks of the host path: every input on the heap. */
    private static List<RowBlock> onHost(List<CsrMatrix> inputs, List<int[]> maps, int nCols, float fill) {
        return STREAMING
                .blocks(ConcatSource.of(inputs, maps, nCols, fill))
                .collectList()
                .block();
    }

    private List<BlockSource> on(Backend backend, List<CsrMatrix> inputs) {
        return inputs.stream().map(m -> PlacedSource.on(backend, m)).toList();
    }

    private static int blocks(BlockSource s) {
        return s.plan(TARGET).size();
    }

    private static CsrMatrix stacked(List<RowBlock> blocks, int nCols) {
        CsrMatrix.Builder all = CsrMatrix.builder(nCols);
        blocks.forEach(all::add);
        return all.build();
    }

    @Test
    void inputsAllOnTheDeviceAreReindexedThereAndDownloadedOnlyByTheHostConsumer() {
        CsrMatrix last = Matrices.random(30, 14, 0.3, 4);
        check(inputs(last), OUTER, 14, -1);
        check(inputs(last), OUTER, 14, 0);
        last = Matrices.random(30, 4, 0.3, 4);
        check(inputs(last), INNER, 4, 0);
    }

    private void check(List<CsrMatrix> inputs, List<int[]> maps, int nCols, float fill) {
        device.calls.clear();
        ConcatSource s = concat(on(device, inputs), maps, nCols, fill);
        assertSame(device, s.backend());
        List<RowBlock> read = new ArrayList<>();
        List<String> moved =
                Logs.during(() -> read.addAll(STREAMING.blocks(s).collectList().block()), MOVING);
        int inputBlocks = 0;
        int mapped = 0;
        for (int i = 0; i < inputs.size(); i++) {
            inputBlocks += blocks(inputs.get(i));
            mapped += maps.get(i) == null ? 0 : blocks(inputs.get(i));
        }
        assertEquals(inputBlocks, device.count("upload"), "each input block placed on the device once, by its input");
        assertEquals(mapped, device.count("reindex"), "every mapped block re-indexed on the device " + device.calls);
        List<String> downloads = read.stream()
                .map(b -> "download " + b.rowStart() + "-" + b.rowEnd())
                .toList();
        assertEquals(
                downloads,
                device.calls.stream()
                        .filter(c -> c.startsWith("download"))
                        .sorted((x, y) -> Long.compare(start(x), start(y)))
                        .toList(),
                "each output block downloaded once, by the consumer");
        assertEquals(List.of(), moved, "nothing moved between backends");
        assertEquals(0, device.memory().reserved(), "every resident block consumed");
        assertTrue(device.memory().peak() > 0, "blocks were resident");
        assertEquals(onHost(inputs, maps, nCols, fill), read, "the host path's blocks");
        Matrices.assertSame(ConcatSourceContractTest.denseStack(inputs, maps, nCols, fill), stacked(read, nCols));
    }

    private static long start(String call) {
        return Long.parseLong(call.substring(call.indexOf(' ') + 1, call.indexOf('-')));
    }

    @Test
    void hostInputsAfterADeviceOneAreUploadedToItSaidOnce() {
        CsrMatrix last = Matrices.random(30, 14, 0.3, 4);
        List<CsrMatrix> inputs = inputs(last);
        List<BlockSource> mixed = new ArrayList<>(on(device, inputs));
        mixed.set(2, B);
        ConcatSource s = concat(mixed, OUTER, 14, -1);
        assertSame(device, s.backend(), "the first input's backend");
        List<RowBlock> read = new ArrayList<>();
        List<String> moved = Logs.during(
                () -> {
                    STREAMING.blocks(s).blockLast();
                    read.addAll(STREAMING.blocks(s).collectList().block());
                },
                MOVING);
        assertEquals(1, moved.size(), "said once over two passes: " + moved);
        assertTrue(moved.get(0).contains("[double, host]"), moved.get(0));
        int bBlocks = blocks(B);
        long inputUploads = 2L * (blocks(A) + blocks(last));
        assertEquals(inputUploads + 2L * bBlocks, device.count("upload"), "B's blocks moved, each once per pass");
        assertEquals(2L * (blocks(A) + bBlocks), device.count("reindex"), "B's re-indexed on the device too");
        assertEquals(2L * read.size(), device.count("download"), "downloads: the consumer's only");
        assertEquals(0, device.memory().reserved());
        assertEquals(onHost(inputs, OUTER, 14, -1), read);
    }

    @Test
    void deviceInputsAfterAHostOneAreDownloadedAndReindexedOnTheHostSaidOnce() {
        CsrMatrix last = Matrices.random(30, 4, 0.3, 4);
        List<CsrMatrix> inputs = inputs(last);
        List<BlockSource> mixed = new ArrayList<>(inputs);
        mixed.set(2, PlacedSource.on(device, B));
        ConcatSource s = concat(mixed, INNER, 4, 0);
        assertSame(HostBackend.INSTANCE, s.backend());
        List<RowBlock> read = new ArrayList<>();
        List<String> moved =
                Logs.during(() -> read.addAll(STREAMING.blocks(s).collectList().block()), MOVING);
        assertEquals(1, moved.size(), moved.toString());
        assertTrue(moved.get(0).contains("[host, double]"), moved.get(0));
        assertEquals(blocks(B), device.count("upload"), "B placed on the device by its input");
        assertEquals(blocks(B), device.count("download"), "and moved to the host by the concatenation");
        assertEquals(0, device.count("reindex"));
        assertEquals(onHost(inputs, INNER, 4, 0), read);
    }

    @Test
    void aReadAcrossInputsIsJoinedAndStaysOnTheDevice() {
        CsrMatrix last = Matrices.random(30, 14, 0.3, 4);
        ConcatSource s = concat(on(device, inputs(last)), OUTER, 14, 2);
        ConcatSource host = ConcatSource.of(inputs(last), OUTER, 14, 2);
        RowBlock across;
        RowBlock expected;
        try (RowReader r = s.open();
                RowReader h = host.open()) {
            across = r.read(3, 30, 50);
            expected = h.read(3, 30, 50);
        }
        assertSame(device, Resident.of(across));
        assertEquals(expected, device.download(across));
        assertEquals(0, device.memory().reserved());
    }
}
