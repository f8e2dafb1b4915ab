/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link Neighbors#neighbors}, as scanpy's
 * {@code sc.pp.neighbors(n_neighbors, n_pcs, use_rep, method, metric, random_state, key_added)} with
 * {@code knn=True}, its default (each cell's edges are to its nearest cells only).
 *
 * @param nNeighbors each cell's neighbours, itself included (scanpy's {@code n_neighbors})
 * @param nPcs       the first components of the representation used, or null for all
 * @param useRep     the obsm key of the representation ({@code X} for X itself), or null for {@code X_pca}
 * @param method     how the graph is weighted
 * @param metric     the distance
 * @param randomState scanpy's {@code random_state}, recorded in uns and seeding the approximate search
 * @param keyAdded   where the results go: {@code KEY_distances} / {@code KEY_connectivities} and uns {@code KEY}, or
 *                   null for scanpy's {@code distances}, {@code connectivities} and uns {@code neighbors}
 */
public record NeighborsOptions(
        int nNeighbors,
        @Nullable Integer nPcs,
        @Nullable String useRep,
        Method method,
        Metric metric,
        int randomState,
        @Nullable String keyAdded) {

    /** How scanpy weights the graph's edges. */
    public enum Method {
        /** UMAP's fuzzy simplicial set: the symmetrized union of each cell's smoothed memberships. */
        UMAP,
        /** A Gaussian kernel with each cell's own width (Haghverdi et al. 2016), as scanpy's {@code gauss}. */
        GAUSS;

        /** @return scanpy's name */
        public String scanpyName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The distances scflux computes. */
    public enum Metric {
        /** The straight-line distance. */
        EUCLIDEAN,
        /** One minus the cosine of the angle between two cells. */
        COSINE;

        /** @return scanpy's (sklearn's) name */
        public String scanpyName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** scanpy's {@code n_neighbors}. */
    public static final Parameter<Integer> N_NEIGHBORS = Parameter.integer(
                    "n_neighbors", 15, "Each cell's neighbours, itself included (scanpy's n_neighbors).")
            .atLeast(2);

    /** scanpy's {@code n_pcs}. */
    public static final Parameter<Integer> N_PCS = Parameter.integer(
                    "n_pcs", null, "Use the first n_pcs components of the representation (default: all).")
            .atLeast(1);

    /** scanpy's {@code use_rep}. */
    public static final Parameter<String> USE_REP =
            Parameter.text("use_rep", null, "The obsm key of the representation, or X (default: X_pca).");

    /** scanpy's {@code method}. */
    public static final Parameter<String> METHOD = Parameter.choice(
            "method", "umap", List.of("umap", "gauss"), "How edges are weighted: UMAP's fuzzy union, or gauss.");

    /** scanpy's {@code metric}. */
    public static final Parameter<String> METRIC =
            Parameter.choice("metric", "euclidean", List.of("euclidean", "cosine"), "The distance between cells.");

    /** scanpy's {@code random_state}. */
    public static final Parameter<Integer> RANDOM_STATE = Parameter.integer(
                    "random_state", 0, "Seed of the approximate search; recorded in uns (scanpy's random_state).")
            .atLeast(0);

    /** scanpy's {@code key_added}. */
    public static final Parameter<String> KEY_ADDED = Parameter.text(
            "key_added",
            null,
            "Write KEY_distances, KEY_connectivities and uns KEY (default: distances, connectivities, neighbors).");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS =
            List.of(N_NEIGHBORS, N_PCS, USE_REP, METHOD, METRIC, RANDOM_STATE, KEY_ADDED);

    private static final NeighborsOptions DEFAULT = from(Arguments.none());

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static NeighborsOptions from(Arguments arguments) {
        return new NeighborsOptions(
                arguments.require(N_NEIGHBORS),
                arguments.get(N_PCS),
                arguments.get(USE_REP),
                Method.valueOf(arguments.require(METHOD).toUpperCase(Locale.ROOT)),
                Metric.valueOf(arguments.require(METRIC).toUpperCase(Locale.ROOT)),
                arguments.require(RANDOM_STATE),
                arguments.get(KEY_ADDED));
    }

    /** @return scanpy's defaults */
    public static NeighborsOptions defaults() {
        return DEFAULT;
    }

    public NeighborsOptions {
        N_NEIGHBORS.check(nNeighbors);
        N_PCS.check(nPcs);
        RANDOM_STATE.check(randomState);
        if (method == null || metric == null) {
            throw new NullPointerException("method and metric");
        }
        if (keyAdded != null && keyAdded.isEmpty()) {
            throw new InvalidParameterException(KEY_ADDED.name(), "must not be empty");
        }
    }

    /**
     * @param n each cell's neighbours, itself included
     * @return these options with {@code n_neighbors} {@code n}
     */
    public NeighborsOptions withNNeighbors(int n) {
        return new NeighborsOptions(n, nPcs, useRep, method, metric, randomState, keyAdded);
    }

    /**
     * @param m how edges are weighted
     * @return these options with {@code method} {@code m}
     */
    public NeighborsOptions withMethod(Method m) {
        return new NeighborsOptions(nNeighbors, nPcs, useRep, m, metric, randomState, keyAdded);
    }

    /**
     * @param m the distance
     * @return these options with {@code metric} {@code m}
     */
    public NeighborsOptions withMetric(Metric m) {
        return new NeighborsOptions(nNeighbors, nPcs, useRep, method, m, randomState, keyAdded);
    }

    /** @return the obsm key of the distances */
    public String distancesKey() {
        return keyAdded == null ? "distances" : keyAdded + "_distances";
    }

    /** @return the obsm key of the connectivities */
    public String connectivitiesKey() {
        return keyAdded == null ? "connectivities" : keyAdded + "_connectivities";
    }

    /** @return the uns key of the parameters */
    public String unsKey() {
        return keyAdded == null ? "neighbors" : keyAdded;
    }
}
