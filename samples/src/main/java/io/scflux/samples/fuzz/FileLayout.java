/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.fuzz;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ContiguousDataset;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where the parts of an intact {@code .h5ad} file lie, so that a fuzzer can aim at them: the superblock, object
 * headers, index structures (B-trees, heaps, found by their signatures), dataset data, and the sparse X arrays.
 */
final class FileLayout {

    /** A byte range {@code [start, end)} of the file. */
    record Range(long start, long end) {
        long length() {
            return end - start;
        }
    }

    /** A contiguous dataset's data: where it lies and how wide its elements are. */
    record Data(long start, int elementSize, long elements) {}

    private static final String[] SIGNATURES = {
        "TREE", "BTHD", "BTLF", "SNOD", "HEAP", "GCOL", "FRHP", "FHDB", "FHIB", "FSHD", "OHDR", "OCHK"
    };

    final long size;
    final List<Range> headers = new ArrayList<>();
    final List<Range> indexes = new ArrayList<>();
    final List<Range> data = new ArrayList<>();
    /** Sparse X's arrays when they are contiguous, else null. */
    @Nullable
    Data indptr;

    @Nullable
    Data indices;
    /** X's shape attribute values {@code n_obs, n_vars}, or null for dense X. */
    long @Nullable [] shape;
    /** The file holds an X element and no obs: a matrix, not an AnnData. */
    boolean matrixOnly;

    private FileLayout(long size) {
        this.size = size;
    }

    /** The layout of {@code bytes}, an intact file also found at {@code file}. */
    static FileLayout of(Path file, byte[] bytes) {
        FileLayout layout = new FileLayout(bytes.length);
        layout.headers.add(new Range(0, Math.min(bytes.length, 96)));
        try (HdfFile hdf = new HdfFile(file)) {
            layout.walk(hdf);
            layout.matrixOnly =
                    hdf.getChildren().containsKey("X") && !hdf.getChildren().containsKey("obs");
        }
        for (int at = 0; at + 4 <= bytes.length; at++) {
            for (String sig : SIGNATURES) {
                if (bytes[at] == sig.charAt(0)
                        && bytes[at + 1] == sig.charAt(1)
                        && bytes[at + 2] == sig.charAt(2)
                        && bytes[at + 3] == sig.charAt(3)) {
                    layout.indexes.add(new Range(at, Math.min(bytes.length, at + 256)));
                }
            }
        }
        return layout;
    }

    private void walk(Node node) {
        headers.add(new Range(node.getAddress(), Math.min(size, node.getAddress() + 256)));
        if (node instanceof Group g) {
            if (g.getPath().equals("/X/") || g.getPath().equals("/X")) {
                Map<String, Attribute> attrs = g.getAttributes();
                Attribute s = attrs.get("shape");
                if (s != null && s.getData() instanceof long[] v && v.length == 2) {
                    shape = v.clone();
                }
            }
            for (Node child : g.getChildren().values()) {
                walk(child);
            }
        } else if (node instanceof ContiguousDataset ds && !ds.isEmpty()) {
            long start = ds.getDataAddress();
            long bytes = ds.getSizeInBytes();
            int width = ds.getDataType().getSize();
            data.add(new Range(start, Math.min(size, start + bytes)));
            Data d = new Data(start, width, ds.getSize());
            if (ds.getPath().equals("/X/indptr")) {
                indptr = d;
            } else if (ds.getPath().equals("/X/indices")) {
                indices = d;
            }
        }
    }

    /** Reads element {@code i} of {@code d} (a little-endian integer of 4 or 8 bytes) from {@code bytes}. */
    static long get(byte[] bytes, Data d, long i) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int at = Math.toIntExact(d.start + i * d.elementSize);
        return d.elementSize == 8 ? b.getLong(at) : b.getInt(at);
    }

    /** Writes element {@code i} of {@code d} into {@code bytes}. */
    static void put(byte[] bytes, Data d, long i, long value) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int at = Math.toIntExact(d.start + i * d.elementSize);
        if (d.elementSize == 8) {
            b.putLong(at, value);
        } else {
            b.putInt(at, (int) value);
        }
    }
}
