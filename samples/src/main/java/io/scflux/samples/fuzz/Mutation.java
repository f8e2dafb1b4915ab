/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.fuzz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * One way of damaging a real {@code .h5ad} file, aimed at a part of it ({@link FileLayout}): the fuzzer's
 * vocabulary. {@link #apply} returns the damaged bytes, or null when the file has no such part (dense X has no
 * indptr); the damage is decided by the random source only, so a seed replays a case.
 */
enum Mutation {
    /** A few bits flipped in the superblock or an object header (dataspaces, datatypes, layouts, attributes). */
    HEADER_BITS {
        @Override
        byte[] damage(byte[] f, FileLayout l, SplittableRandom r) {
            return flipBits(f, pick(l.headers, r), r);
        }
    },
    /** A run of bytes overwritten in a B-tree, heap or chunk index. */
    INDEX_RUN {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            return l.indexes.isEmpty() ? null : overwriteRun(f, pick(l.indexes, r), r);
        }
    },
    /** A few bits flipped in an index structure. */
    INDEX_BITS {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            return l.indexes.isEmpty() ? null : flipBits(f, pick(l.indexes, r), r);
        }
    },
    /** A run of bytes overwritten in a dataset's data. */
    DATA_RUN {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            return l.data.isEmpty() ? null : overwriteRun(f, pick(l.data, r), r);
        }
    },
    /** A run of bytes overwritten anywhere. */
    ANY_RUN {
        @Override
        byte[] damage(byte[] f, FileLayout l, SplittableRandom r) {
            return overwriteRun(f, new FileLayout.Range(0, f.length), r);
        }
    },
    /** The file cut short, half the time just inside one of its parts. */
    TRUNCATE {
        @Override
        byte[] damage(byte[] f, FileLayout l, SplittableRandom r) {
            long at;
            if (r.nextBoolean()) {
                FileLayout.Range p = pick(r.nextBoolean() ? l.headers : l.data.isEmpty() ? l.headers : l.data, r);
                at = p.start() + r.nextLong(Math.max(1, p.length()));
            } else {
                at = r.nextLong(f.length);
            }
            return java.util.Arrays.copyOf(f, (int) Math.min(at, f.length - 1));
        }
    },
    /** Two entries of indptr made to decrease. */
    INDPTR_DECREASING {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            FileLayout.Data p = l.indptr;
            if (p == null || p.elements() < 3) {
                return null;
            }
            long i = 1 + r.nextLong(p.elements() - 2);
            FileLayout.put(f, p, i, FileLayout.get(f, p, i + 1) + 1 + r.nextInt(1000));
            return f;
        }
    },
    /** The last indptr entry (nnz) past the end of indices and data, or negative. */
    NNZ_PAST_DATA {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            FileLayout.Data p = l.indptr;
            if (p == null) {
                return null;
            }
            long nnz = FileLayout.get(f, p, p.elements() - 1);
            long[] choices = {nnz + 1, nnz * 2 + 7, Integer.MAX_VALUE, Long.MAX_VALUE / 2, -1};
            FileLayout.put(f, p, p.elements() - 1, choices[r.nextInt(choices.length)]);
            return f;
        }
    },
    /** Column indices out of range: at n_vars, far beyond, or negative. */
    INDICES_OUT_OF_RANGE {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            FileLayout.Data d = l.indices;
            if (d == null || d.elements() == 0 || l.shape == null) {
                return null;
            }
            long[] choices = {l.shape[1], l.shape[1] + r.nextInt(1 << 20), -1, Integer.MIN_VALUE};
            for (int k = 1 + r.nextInt(3); k > 0; k--) {
                FileLayout.put(f, d, r.nextLong(d.elements()), choices[r.nextInt(choices.length)]);
            }
            return f;
        }
    },
    /**
     * An attribute's value given another type: the datatype class of an attribute anndata reads ({@code
     * encoding-type}, {@code shape}...) changed among integer, float, string and variable-length.
     */
    ATTRIBUTE_TYPE {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            String name = ATTRIBUTES[r.nextInt(ATTRIBUTES.length)];
            java.util.List<Integer> at = new java.util.ArrayList<>();
            byte[] n = (name + "\0").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            for (int i = 0; i + n.length <= f.length; i++) {
                if (java.util.Arrays.equals(f, i, i + n.length, n, 0, n.length)) {
                    at.add(i);
                }
            }
            if (at.isEmpty()) {
                return null;
            }
            int end = at.get(r.nextInt(at.size())) + n.length;
            int type = r.nextBoolean() ? end : (end + 7) & ~7; // attribute messages v3 and v1 (padded names)
            if (type >= f.length) {
                return null;
            }
            int[] classes = {0, 1, 3, 9};
            f[type] = (byte) ((f[type] & 0xF0) | classes[r.nextInt(classes.length)]);
            return f;
        }
    },
    /** X's shape attribute made smaller, larger, huge (far beyond memory) or negative. */
    SHAPE {
        @Override
        byte @Nullable [] damage(byte[] f, FileLayout l, SplittableRandom r) {
            if (l.shape == null) {
                return null;
            }
            int at = find(f, l.shape);
            if (at < 0) {
                return null;
            }
            int axis = r.nextInt(2);
            long n = l.shape[axis];
            long[] choices = {n - 1, n + 1, 0, n * 1000, 1L << 40, Long.MAX_VALUE, -n};
            ByteBuffer.wrap(f)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(at + 8 * axis, choices[r.nextInt(choices.length)]);
            return f;
        }
    };

    private static final String[] ATTRIBUTES = {
        "encoding-type", "encoding-version", "shape", "_index", "column-order", "ordered", "h5sparse_format"
    };

    /** {@code file} damaged in place, or null when this mutation has nothing to aim at in it. */
    abstract byte @Nullable [] damage(byte[] file, FileLayout layout, SplittableRandom random);

    /** {@code file} damaged (a copy), or null when this mutation has nothing to aim at in it. */
    byte @Nullable [] apply(byte[] file, FileLayout layout, SplittableRandom random) {
        return damage(file.clone(), layout, random);
    }

    private static FileLayout.Range pick(List<FileLayout.Range> ranges, SplittableRandom r) {
        return ranges.get(r.nextInt(ranges.size()));
    }

    private static byte[] flipBits(byte[] f, FileLayout.Range in, SplittableRandom r) {
        for (int k = 1 + r.nextInt(4); k > 0; k--) {
            int at = (int) (in.start() + r.nextLong(Math.max(1, in.length())));
            if (at < f.length) {
                f[at] ^= (byte) (1 << r.nextInt(8));
            }
        }
        return f;
    }

    private static byte[] overwriteRun(byte[] f, FileLayout.Range in, SplittableRandom r) {
        int at = (int) (in.start() + r.nextLong(Math.max(1, in.length())));
        int length = 1 + r.nextInt(64);
        int fill = r.nextInt(3);
        for (int i = at; i < Math.min(f.length, at + length); i++) {
            f[i] = fill == 0 ? 0 : fill == 1 ? (byte) 0xFF : (byte) r.nextInt(256);
        }
        return f;
    }

    /** Where the little-endian int64 pair {@code values} first occurs in {@code f}, or -1. */
    private static int find(byte[] f, long[] values) {
        ByteBuffer b = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at + 16 <= f.length; at++) {
            if (b.getLong(at) == values[0] && b.getLong(at + 8) == values[1]) {
                return at;
            }
        }
        return -1;
    }
}
