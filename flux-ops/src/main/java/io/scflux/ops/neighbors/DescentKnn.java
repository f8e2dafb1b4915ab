/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.core.Execution;
import io.scflux.ops.neighbors.NeighborsOptions.Metric;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Each cell's nearest cells, approximately, for data too large for brute force (scanpy's approximate path above
 * 8,192 cells, which is pynndescent's): lists started from random-projection trees, then improved by nearest-neighbour
 * descent (a neighbour of a neighbour is likely a neighbour) until an iteration changes few entries.
 *
 * <p>Every step is deterministic whatever the thread count. The trees split on hyperplanes drawn from a stream per
 * tree and node seeded by {@code random_state}; each cell's list is computed from the lists of the previous iteration
 * alone (a synchronous, pull-style descent: cell {@code i} gathers the neighbours and reverse neighbours of its own,
 * and keeps the nearest of them and its list; a candidate reached through two entries that are not new was compared
 * in an earlier iteration, and is skipped), on fixed ranges of cells. Ties order by position.
 */
final class DescentKnn {

    /** Trees of the start: more find more true neighbours before the descent, at a cost linear in their number. */
    private static final int TREES = 8;

    /**
     * The list length the descent keeps, at least: the neighbours wanted are its nearest. A longer list finds them
     * far more often where the data have many dimensions (on noise in 50 dimensions, 20,000 cells: recall 0.925 at 14,
     * 0.983 at 22, 0.995 at 30; the cost grows with its square).
     */
    private static final int SEARCH_WIDTH = 24;

    /** Iterations of the descent at most; it stops earlier when an iteration changes few entries. */
    private static final int MAX_ITERATIONS = 12;

    /** The fraction of entries an iteration must change for the next to run (pynndescent's delta). */
    private static final double DELTA = 0.001;

    private static final int CELLS_PER_TASK = 256;

    private DescentKnn() {}

    /**
     * @param points    the cells
     * @param k         each cell's neighbours, itself included
     * @param metric    the distance
     * @param seed      scanpy's {@code random_state}
     * @param execution the workers
     * @return a cold Mono of the lists
     */
    static Mono<KnnLists> search(Representation points, int k, Metric metric, int seed, Execution execution) {
        return Mono.fromCallable(() -> {
                    int n = points.nCells();
                    if (k > n) {
                        throw new IllegalArgumentException(
                                "n_neighbors is " + k + ", more than the " + n + " cells (itself included)");
                    }
                    Distances distances = new Distances(points, metric);
                    float[] x = distances.rows(); // the trees split what the distances compare
                    int m = Math.min(n - 1, Math.max(k - 1, SEARCH_WIDTH)); // the others searched, k - 1 kept
                    int leaf = 2 * m;
                    int[][] leaves = new int[TREES][];
                    int[][] leafStarts = new int[TREES][];
                    int[][] leafOf = new int[TREES][];
                    parallel(TREES, execution, t -> {
                        Tree tree = Tree.build(x, points.dims(), n, leaf, seed, t);
                        leaves[t] = tree.order;
                        leafStarts[t] = tree.starts;
                        leafOf[t] = tree.leafOf;
                    });
                    int[] started = new int[n * m];
                    float[] startedDists = new float[n * m];
                    parallelCells(n, execution, (from, to) -> {
                        Candidates c = new Candidates(m);
                        for (int i = from; i < to; i++) {
                            c.reset(i);
                            for (int t = 0; t < TREES; t++) {
                                int l = leafOf[t][i];
                                for (int p = leafStarts[t][l]; p < leafStarts[t][l + 1]; p++) {
                                    c.offer(leaves[t][p], distances);
                                }
                            }
                            for (int step = 1; c.size() < m; step++) { // a cell in small leaves only: fill up
                                c.offer((i + step) % n, distances);
                            }
                            c.fill(started, startedDists, i * m, n, i);
                        }
                    });
                    int[] lists = started;
                    float[] dists = startedDists;
                    boolean[] fresh = new boolean[n * m]; // entries new in the last iteration: all, at the start
                    Arrays.fill(fresh, true);
                    for (int iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
                        int[][] reverse = reverse(lists, dists, n, m);
                        int[] next = new int[n * m];
                        float[] nextDists = new float[n * m];
                        boolean[] nextFresh = new boolean[n * m];
                        long[] changed = new long[(n + CELLS_PER_TASK - 1) / CELLS_PER_TASK];
                        Lists previous = new Lists(lists, dists, fresh, reverse, m);
                        parallelCells(n, execution, (from, to) -> {
                            Candidates c = new Candidates(m);
                            long count = 0;
                            for (int i = from; i < to; i++) {
                                c.reset(i);
                                for (int a = 0; a < m; a++) {
                                    c.offerKnown(previous.cells[i * m + a], previous.dists[i * m + a]);
                                }
                                for (int a = 0; a < m; a++) {
                                    previous.gather(previous.cells[i * m + a], previous.fresh[i * m + a], c, distances);
                                }
                                for (int j : reverse[i]) {
                                    previous.gather(j, previous.freshEdge(j, i), c, distances);
                                }
                                c.fill(next, nextDists, i * m, n, i);
                                for (int a = 0; a < m; a++) {
                                    nextFresh[i * m + a] = !previous.holds(i, next[i * m + a]);
                                    count += nextFresh[i * m + a] ? 1 : 0;
                                }
                            }
                            changed[from / CELLS_PER_TASK] = count;
                        });
                        lists = next;
                        dists = nextDists;
                        fresh = nextFresh;
                        if (Arrays.stream(changed).sum() < DELTA * n * m) {
                            break;
                        }
                    }
                    int[] indices = new int[n * k];
                    float[] out = new float[n * k];
                    for (int i = 0; i < n; i++) {
                        indices[i * k] = i;
                        for (int a = 0; a < k - 1; a++) {
                            indices[i * k + 1 + a] = lists[i * m + a];
                            out[i * k + 1 + a] = dists[i * m + a];
                        }
                    }
                    return new KnnLists(n, k, indices, out);
                })
                .subscribeOn(Schedulers.boundedElastic()); // it waits for its workers: never on one of theirs
    }

    /**
     * The lists of one iteration, read by the next: each cell's neighbours and their distances, which entries are new
     * since the iteration before (a pair of cells both reached through entries that are not was compared then), and
     * the reverse neighbours.
     */
    private record Lists(int[] cells, float[] dists, boolean[] fresh, int[][] reverse, int m) {

        /**
         * Offers {@code j} and its neighbours and reverse neighbours; through an entry that is not new
         * ({@code viaFresh} false) only those reached by new entries, the others having been compared before.
         */
        void gather(int j, boolean viaFresh, Candidates c, Distances distances) {
            c.offer(j, distances);
            for (int b = 0; b < m; b++) {
                if (viaFresh || fresh[j * m + b]) {
                    c.offer(cells[j * m + b], distances);
                }
            }
            for (int r : reverse[j]) {
                if (viaFresh || freshEdge(r, j)) {
                    c.offer(r, distances);
                }
            }
        }

        /** Whether {@code j} is a new entry of {@code i}'s list. */
        boolean freshEdge(int i, int j) {
            for (int a = 0; a < m; a++) {
                if (cells[i * m + a] == j) {
                    return fresh[i * m + a];
                }
            }
            return false;
        }

        /** Whether {@code i}'s list holds {@code j}. */
        boolean holds(int i, int j) {
            for (int a = 0; a < m; a++) {
                if (cells[i * m + a] == j) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Each cell's reverse neighbours (the cells whose list holds it), at most {@code m}, the nearest kept (ties by
     * position), each list sorted by position.
     */
    private static int[][] reverse(int[] lists, float[] dists, int n, int m) {
        int[] count = new int[n];
        for (int e = 0; e < lists.length; e++) {
            count[lists[e]]++;
        }
        int[][] all = new int[n][];
        for (int i = 0; i < n; i++) {
            all[i] = new int[count[i]];
        }
        int[] fill = new int[n];
        for (int i = 0; i < n; i++) { // in position order: each reverse list is sorted by position
            for (int a = 0; a < m; a++) {
                int j = lists[i * m + a];
                all[j][fill[j]++] = i;
            }
        }
        int[][] out = new int[n][];
        for (int j = 0; j < n; j++) {
            int[] r = all[j];
            if (r.length <= m) {
                out[j] = r;
                continue;
            }
            long[] keyed = new long[r.length];
            for (int p = 0; p < r.length; p++) {
                float d = distanceInList(lists, dists, r[p], j, m);
                keyed[p] = ((long) Float.floatToIntBits(d) << 32) | r[p]; // non-negative floats order as their bits
            }
            Arrays.sort(keyed);
            int[] kept = new int[m];
            for (int p = 0; p < m; p++) {
                kept[p] = (int) keyed[p];
            }
            Arrays.sort(kept);
            out[j] = kept;
        }
        return out;
    }

    private static float distanceInList(int[] lists, float[] dists, int i, int j, int m) {
        for (int a = 0; a < m; a++) {
            if (lists[i * m + a] == j) {
                return dists[i * m + a];
            }
        }
        throw new IllegalStateException(j + " is not in the list of " + i);
    }

    private interface Range {
        void run(int from, int to);
    }

    private static void parallelCells(int n, Execution execution, Range body) {
        int tasks = (n + CELLS_PER_TASK - 1) / CELLS_PER_TASK;
        parallel(tasks, execution, t -> body.run(t * CELLS_PER_TASK, Math.min(n, (t + 1) * CELLS_PER_TASK)));
    }

    private static void parallel(int tasks, Execution execution, IntConsumer task) {
        Flux.range(0, tasks)
                .parallel(execution.threads())
                .runOn(execution.scheduler())
                .doOnNext(task::accept)
                .sequential()
                .blockLast();
    }

    /**
     * The nearest {@code m} candidates of one cell seen so far, each once: a {@link NearestHeap} and an
     * open-addressing set of the positions offered, reused cell after cell.
     */
    private static final class Candidates {
        private final int m;
        private final NearestHeap nearest;
        private int self;
        private int[] seen = new int[1024];
        private int seenCount;

        Candidates(int m) {
            this.m = m;
            this.nearest = new NearestHeap(m);
        }

        int size() {
            return nearest.size();
        }

        void reset(int cell) {
            nearest.clear();
            self = cell;
            Arrays.fill(seen, -1);
            seenCount = 0;
        }

        void offer(int j, Distances distances) {
            if (j != self && firstTime(j)) {
                nearest.offer(j, distances.between(self, j));
            }
        }

        void offerKnown(int j, float v) {
            if (j != self && firstTime(j)) {
                nearest.offer(j, v);
            }
        }

        /** Writes the list nearest first; every cell finds {@code m} (the start tops short ones up). */
        void fill(int[] lists, float[] dists, int at, int n, int cell) {
            if (nearest.size() < m) {
                throw new IllegalStateException(
                        "cell " + cell + " found " + nearest.size() + " of " + m + " neighbours");
            }
            nearest.drainInto(lists, dists, at);
        }

        private boolean firstTime(int j) {
            if (2 * (seenCount + 1) > seen.length) {
                int[] old = seen;
                seen = new int[old.length * 2];
                Arrays.fill(seen, -1);
                seenCount = 0;
                for (int v : old) {
                    if (v >= 0) {
                        insert(v);
                    }
                }
            }
            return insert(j);
        }

        private boolean insert(int j) {
            int mask = seen.length - 1;
            int h = (j * 0x9E3779B1) >>> 7 & mask;
            while (seen[h] >= 0) {
                if (seen[h] == j) {
                    return false;
                }
                h = (h + 1) & mask;
            }
            seen[h] = j;
            seenCount++;
            return true;
        }
    }

    /**
     * A random-projection tree: cells split recursively by the hyperplane halfway between two cells drawn from a
     * stream seeded by the tree's seed and the node's position, until a node holds at most {@code leaf} cells. The
     * leaves' cells, in order, with each leaf's start and each cell's leaf.
     */
    private record Tree(int[] order, int[] starts, int[] leafOf) {

        static Tree build(float[] x, int d, int n, int leaf, int seed, int tree) {
            int[] order = new int[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            int[] starts = new int[n + 1];
            int[] count = {0};
            split(x, d, order, 0, n, leaf, new SplittableRandom(seed * 0x9E3779B97F4A7C15L + tree), starts, count);
            starts[count[0]] = n;
            int[] leafOf = new int[n];
            for (int l = 0; l < count[0]; l++) {
                for (int p = starts[l]; p < starts[l + 1]; p++) {
                    leafOf[order[p]] = l;
                }
            }
            return new Tree(order, Arrays.copyOf(starts, count[0] + 1), leafOf);
        }

        private static void split(
                float[] x,
                int d,
                int[] order,
                int from,
                int to,
                int leaf,
                SplittableRandom random,
                int[] starts,
                int[] count) {
            if (to - from <= leaf) {
                starts[count[0]++] = from;
                return;
            }
            long seedOfChildren = random.nextLong();
            int a = order[from + random.nextInt(to - from)];
            int b = order[from + random.nextInt(to - from)];
            double[] normal = new double[d];
            double offset = 0;
            for (int c = 0; c < d; c++) {
                normal[c] = (double) x[a * d + c] - x[b * d + c];
                offset -= normal[c] * ((double) x[a * d + c] + x[b * d + c]) / 2;
            }
            int lo = from;
            int hi = to - 1;
            int tie = 0;
            while (lo <= hi) {
                int i = order[lo];
                double side = offset;
                for (int c = 0; c < d; c++) {
                    side += normal[c] * x[i * d + c];
                }
                boolean left = side < 0 || (side == 0 && (tie++ & 1) == 0);
                if (left) {
                    lo++;
                } else {
                    order[lo] = order[hi];
                    order[hi--] = i;
                }
            }
            if (lo == from || lo == to) { // a degenerate split (equal cells): halve by position
                lo = (from + to) >>> 1;
            }
            split(x, d, order, from, lo, leaf, new SplittableRandom(seedOfChildren), starts, count);
            split(x, d, order, lo, to, leaf, new SplittableRandom(seedOfChildren ^ 0x5DEECE66DL), starts, count);
        }
    }
}
