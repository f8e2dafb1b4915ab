/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The room a write may use, checked twice. Before the file is created, against the estimate of the whole file
 * ({@link OutputSize}): a write that cannot fit is refused then, saying how much it needs and how much is free, and
 * nothing is written. While writing, before the HDF5 library is handed more: the library keeps written chunks and
 * metadata in caches and writes them later, at the latest when closing; should the disk fill up (another writer, or
 * an estimate short of the truth) or the file reach the process's file size limit ({@code ulimit -f}) meanwhile,
 * those closes fail half-way and leave the library holding objects it can neither release nor shut down from (the
 * process then crashes at exit). So a write stops while there is still room for what it has committed to: the bytes
 * it is about to hand over, what the open datasets hold unwritten ({@link #track}), and a margin for the metadata
 * written at close. The margin is proportional to the estimate (bounded by {@link #MIN_MARGIN} and
 * {@link #METADATA_MARGIN}) and never more than the estimate leaves beyond what is committed (but
 * {@link #LEAST_MARGIN}), so a file that passed the first check, on a disk nobody else fills, passes every later one
 * unless it lies within 16 KB of the free space.
 */
final class DiskSpace {

    /** The most room kept for the metadata the library writes at close (object headers, B-tree nodes, heaps). */
    static final long METADATA_MARGIN = 8L << 20;
    /** The least room kept for it. */
    static final long MIN_MARGIN = 256L << 10;
    /**
     * The room kept whatever the estimate leaves: should it be short of the truth, the object headers the library
     * flushes at close still fit.
     */
    static final long LEAST_MARGIN = 16L << 10;
    /** The margin per byte of the estimate. */
    static final double MARGIN_PER_BYTE = 1.0 / 32;

    private final Path file;
    private final LongSupplier usable;
    private final long sizeLimit;
    private final List<LongSupplier> pending = new ArrayList<>();
    private String folder;
    private OutputSize.Estimate estimate = OutputSize.Estimate.UNKNOWN;

    /**
     * The room for {@code file}: {@code usable} the free bytes of its file system, {@code sizeLimit} the largest file
     * the process may write ({@link Long#MAX_VALUE}: none).
     */
    DiskSpace(Path file, LongSupplier usable, long sizeLimit) {
        this.file = file.toAbsolutePath();
        this.usable = usable;
        this.sizeLimit = sizeLimit;
        this.folder = Objects.toString(this.file.getParent(), this.file.toString()); // none above a root
    }

    /** The room for {@code file} (about to be created): its file system's free space and this process's limit. */
    static DiskSpace of(Path file) {
        Path folder = file.toAbsolutePath().getParent();
        FileStore store;
        try {
            store = Files.getFileStore(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(folder + ": cannot read its free space: " + e.getMessage(), e);
        }
        return new DiskSpace(
                file,
                () -> {
                    try {
                        return store.getUsableSpace();
                    } catch (IOException e) {
                        return Long.MAX_VALUE; // unknown: the write itself will say if the disk is full
                    }
                },
                fileSizeLimit(Path.of("/proc/self/limits")));
    }

    /** The soft "Max file size" of {@code limits} (Linux's /proc/self/limits), or none when unlimited or unknown. */
    static long fileSizeLimit(Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max file size")) {
                    String soft =
                            line.substring("Max file size".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: no limit known
        }
        return Long.MAX_VALUE;
    }

    /**
     * The check before the file is created: fails unless the file {@code size} estimates fits in the free space and
     * under the file size limit. Remembers the estimate for the checks while writing, and {@code folder} (as the user
     * gave it) for every message.
     *
     * @param size   the estimate of the whole file ({@link OutputSize.Estimate#UNKNOWN}: no check now)
     * @param name   the file's name, for messages
     * @param folder its folder as the user gave it, for messages
     */
    void reserve(OutputSize.Estimate size, String name, String folder) {
        this.folder = folder;
        this.estimate = size;
        if (!size.known()) {
            return;
        }
        long free = usable.getAsLong();
        if (free < size.bytes()) {
            throw IoFailure.of(name + ": needs about " + OutputSize.Estimate.megabytes(size.bytes(), true) + ", "
                    + OutputSize.Estimate.megabytes(free, false) + " free in " + folder);
        }
        if (size.bytes() > sizeLimit) {
            throw IoFailure.of(name + ": needs about " + OutputSize.Estimate.megabytes(size.bytes(), true)
                    + ", more than the file size this process may write (ulimit -f: " + sizeLimit + " bytes) in "
                    + folder);
        }
    }

    /** The estimate's ratio of stored bytes to bytes handed to the library (1 without compression). */
    double ratio() {
        return estimate.ratio();
    }

    /**
     * Counts what {@code unwritten} says an open dataset holds that the library has not written yet, until
     * {@link #release}.
     */
    void track(LongSupplier unwritten) {
        pending.add(unwritten);
    }

    void release(LongSupplier unwritten) {
        pending.remove(unwritten);
    }

    /**
     * Fails unless {@code bytes} more can be handed to the library with room left for what the open datasets hold
     * and the margin for closing the file. {@code what} names the file and element for the message.
     */
    void require(long bytes, String what) {
        long committed = bytes;
        for (LongSupplier p : pending) {
            committed += p.getAsLong();
        }
        long size = size();
        long margin = margin();
        if (estimate.known()) {
            margin = Math.max(LEAST_MARGIN, Math.min(margin, estimate.bytes() - size - committed));
        }
        long needed = committed + margin;
        long free = usable.getAsLong();
        if (free < needed) {
            throw IoFailure.of(what + ": needs about " + OutputSize.Estimate.megabytes(needed, true)
                    + " more to finish and close the file, " + OutputSize.Estimate.megabytes(free, false)
                    + " free in " + folder);
        }
        if (sizeLimit != Long.MAX_VALUE && size + needed > sizeLimit) {
            throw IoFailure.of(what + ": the file would grow past the size this process may write "
                    + "(ulimit -f: " + sizeLimit + " bytes) in " + folder + " (" + size + " bytes written, about "
                    + needed + " more needed)");
        }
    }

    /** The room kept for the metadata written at close: a share of the estimate, bounded; the most when unknown. */
    private long margin() {
        if (!estimate.known()) {
            return METADATA_MARGIN;
        }
        return Math.max(MIN_MARGIN, Math.min(METADATA_MARGIN, (long) (estimate.bytes() * MARGIN_PER_BYTE)));
    }

    private long size() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
