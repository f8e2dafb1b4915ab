/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

/**
 * The {@code capacity} nearest cells offered so far: a bounded max-heap ordered by (distance, position), so that
 * ties go to the lower position whatever the order of the offers. Reused cell after cell ({@link #clear}); the
 * search's hot loop allocates nothing.
 */
final class NearestHeap {

    private final int capacity;
    private final int[] cells;
    private final float[] keys;
    private int size;

    NearestHeap(int capacity) {
        this.capacity = capacity;
        this.cells = new int[capacity];
        this.keys = new float[capacity];
    }

    void clear() {
        size = 0;
    }

    int size() {
        return size;
    }

    /** Keeps {@code cell} at {@code distance} if it is among the nearest so far. */
    void offer(int cell, float distance) {
        if (size < capacity) {
            cells[size] = cell;
            keys[size] = distance;
            up(size++);
        } else if (before(distance, cell, keys[0], cells[0])) {
            cells[0] = cell;
            keys[0] = distance;
            down(0, capacity);
        }
    }

    /** Writes the cells kept, nearest first, to {@code at}: the heap is empty afterwards. */
    void drainInto(int[] to, float[] distances, int at) {
        for (int end = size - 1; end >= 0; end--) {
            to[at + end] = cells[0];
            distances[at + end] = keys[0];
            cells[0] = cells[end];
            keys[0] = keys[end];
            down(0, end);
        }
        size = 0;
    }

    private static boolean before(float a, int i, float b, int j) {
        return a < b || (a == b && i < j);
    }

    private void up(int c) {
        while (c > 0) {
            int p = (c - 1) / 2;
            if (!before(keys[p], cells[p], keys[c], cells[c])) {
                return;
            }
            swap(p, c);
            c = p;
        }
    }

    private void down(int p, int n) {
        while (true) {
            int l = 2 * p + 1;
            if (l >= n) {
                return;
            }
            int c = l + 1 < n && before(keys[l], cells[l], keys[l + 1], cells[l + 1]) ? l + 1 : l;
            if (!before(keys[p], cells[p], keys[c], cells[c])) {
                return;
            }
            swap(p, c);
            p = c;
        }
    }

    private void swap(int a, int b) {
        int h = cells[a];
        cells[a] = cells[b];
        cells[b] = h;
        float t = keys[a];
        keys[a] = keys[b];
        keys[b] = t;
    }
}
