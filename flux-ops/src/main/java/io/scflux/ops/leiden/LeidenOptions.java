/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.leiden;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link Leiden#leiden}, as scanpy's
 * {@code sc.tl.leiden(resolution, random_state, key_added, n_iterations, neighbors_key, obsp, flavor)}: modularity
 * with a resolution, on the connectivities as weights, undirected (for the symmetric graph, leidenalg's directed
 * modularity is the same).
 *
 * @param resolution   higher for more, smaller clusters
 * @param randomState  the seed: the clusters depend on it and on the graph only
 * @param keyAdded     the obs column of the labels, and the uns key of the parameters
 * @param nIterations  iterations of the algorithm; negative: until an iteration changes nothing
 * @param neighborsKey the uns key whose {@code connectivities_key} names the graph, or null for {@code neighbors}
 * @param obsp         the obsp key of the graph itself, instead of {@code neighborsKey}
 * @param bySize       number the clusters by size, largest first, as leidenalg does; else by each cluster's first
 *                     cell, as igraph does
 */
public record LeidenOptions(
        double resolution,
        int randomState,
        String keyAdded,
        int nIterations,
        @Nullable String neighborsKey,
        @Nullable String obsp,
        boolean bySize) {

    /** scanpy's {@code resolution}. */
    public static final Parameter<Double> RESOLUTION = Parameter.number(
                    "resolution", 1.0, "Higher values give more, smaller clusters (modularity's resolution).")
            .above(0);

    /** scanpy's {@code random_state}. */
    public static final Parameter<Integer> RANDOM_STATE = Parameter.integer(
                    "random_state", 0, "The seed: the clusters depend on it and on the graph only.")
            .atLeast(0);

    /** scanpy's {@code key_added}. */
    public static final Parameter<String> KEY_ADDED =
            Parameter.text("key_added", "leiden", "The obs column of the cluster labels (and uns key).");

    /** scanpy's {@code n_iterations}. */
    public static final Parameter<Integer> N_ITERATIONS = Parameter.integer(
            "n_iterations", 2, "Iterations of Leiden's algorithm; negative: until one changes nothing.");

    /** scanpy's {@code neighbors_key}. */
    public static final Parameter<String> NEIGHBORS_KEY = Parameter.text(
            "neighbors_key",
            null,
            "The uns key of the neighbors whose connectivities are clustered (default: neighbors).");

    /** scanpy's {@code obsp}. */
    public static final Parameter<String> OBSP =
            Parameter.text("obsp", null, "Cluster this obsp matrix instead of the neighbors' connectivities.");

    /** scanpy's {@code flavor}: both run Leiden's algorithm on modularity; they number the clusters differently. */
    public static final Parameter<String> FLAVOR = Parameter.choice(
            "flavor",
            "igraph",
            List.of("igraph", "leidenalg"),
            "How clusters are numbered: igraph by their first cell, leidenalg by size (largest first).");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS =
            List.of(RESOLUTION, RANDOM_STATE, KEY_ADDED, N_ITERATIONS, NEIGHBORS_KEY, OBSP, FLAVOR);

    private static final LeidenOptions DEFAULT = from(Arguments.none());

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults (igraph's flavor) for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static LeidenOptions from(Arguments arguments) {
        return new LeidenOptions(
                arguments.require(RESOLUTION),
                arguments.require(RANDOM_STATE),
                arguments.require(KEY_ADDED),
                arguments.require(N_ITERATIONS),
                arguments.get(NEIGHBORS_KEY),
                arguments.get(OBSP),
                arguments.require(FLAVOR).equals("leidenalg"));
    }

    /** @return scanpy's defaults, igraph's flavor */
    public static LeidenOptions defaults() {
        return DEFAULT;
    }

    public LeidenOptions {
        RESOLUTION.check(resolution);
        RANDOM_STATE.check(randomState);
        if (keyAdded == null || keyAdded.isEmpty()) {
            throw new InvalidParameterException(KEY_ADDED.name(), "must not be empty");
        }
        if (neighborsKey != null && obsp != null) {
            throw new InvalidParameterException(OBSP.name(), "give obsp or neighbors_key, not both");
        }
        if (nIterations == 0) {
            throw new InvalidParameterException(N_ITERATIONS.name(), "must not be 0 (negative: until stable)");
        }
    }

    /**
     * @param r the resolution
     * @return these options with {@code resolution} {@code r}
     */
    public LeidenOptions withResolution(double r) {
        return new LeidenOptions(r, randomState, keyAdded, nIterations, neighborsKey, obsp, bySize);
    }

    /**
     * @param leidenalg number the clusters by size, as leidenalg; else by first cell, as igraph
     * @return these options with that numbering
     */
    public LeidenOptions withSizeOrder(boolean leidenalg) {
        return new LeidenOptions(resolution, randomState, keyAdded, nIterations, neighborsKey, obsp, leidenalg);
    }

    /**
     * @param seed the seed
     * @return these options with {@code random_state} {@code seed}
     */
    public LeidenOptions withRandomState(int seed) {
        return new LeidenOptions(resolution, seed, keyAdded, nIterations, neighborsKey, obsp, bySize);
    }
}
