/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.HdfFile;
import io.jhdf.api.Group;
import io.jhdf.api.Node;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.Settings;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.Raw;
import io.scflux.io.hdf5.Hdf5;
import io.scflux.io.safety.FileGuard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Reads the elements of an {@code .h5ad} into an {@link AnnData}; matrices stay in the file. Written by anndata 0.7
 * and newer; anndata 0.6's layout is rejected (see {@link LegacyLayout}). A Cell Ranger {@code .h5} is handed to
 * {@link CellRangerReader}.
 */
final class H5adReader {

    private final ElementReader elements;

    private H5adReader(Path file, Settings settings) {
        this.elements = new ElementReader(file, settings);
    }

    /**
     * {@code file}'s container, opened under {@code settings}; a Cell Ranger file is read with {@code cellRanger}
     * ({@link CellRangerReader}).
     */
    static AnnData read(Path file, CellRangerOptions cellRanger, Settings settings) {
        FileGuard.checkNotLocked(file, settings);
        try (HdfFile hdf = open(file)) {
            return Hdf5.guard(
                    hdf,
                    () -> CellRangerReader.isCellRanger(hdf)
                            ? CellRangerReader.read(file, hdf, cellRanger, settings)
                            : new H5adReader(file, settings).read(hdf));
        }
    }

    /** True when {@code file} is a Cell Ranger feature-barcode matrix rather than an AnnData file. */
    static boolean isCellRanger(Path file) {
        try (HdfFile hdf = open(file)) {
            return Hdf5.guard(hdf, () -> CellRangerReader.isCellRanger(hdf));
        }
    }

    private AnnData read(HdfFile root) {
        LegacyLayout.check(root);
        Frame obs = FrameReader.read(Hdf5.child(root, "obs"));
        Frame var = FrameReader.read(Hdf5.child(root, "var"));
        Node x = present(Hdf5.childOrNull(root, "X"));
        AnnData data = new AnnData(x == null ? null : matrix(x, obs.size(), var.size()), obs, var);
        members(root, "layers", (name, node) -> data.putLayer(name, matrix(node, data.nObs(), data.nVars())));
        members(root, "obsm", (name, node) -> data.putObsm(name, elements.read(node)));
        members(root, "varm", (name, node) -> data.putVarm(name, elements.read(node)));
        members(root, "obsp", (name, node) -> data.putObsp(name, elements.read(node)));
        members(root, "varp", (name, node) -> data.putVarp(name, elements.read(node)));
        Node uns = Hdf5.childOrNull(root, "uns");
        if (uns != null) {
            data.uns().putAll(elements.mapping(uns));
        }
        Node raw = present(Hdf5.childOrNull(root, "raw"));
        if (raw != null) {
            data.setRaw(raw(raw, data.nObs()));
        }
        return data;
    }

    /** {@code node}, or null when it is absent or anndata's {@code null} element (X or raw set to None). */
    private static @Nullable Node present(@Nullable Node node) {
        return node == null || "null".equals(Hdf5.encodingType(node)) ? null : node;
    }

    /** {@code raw}: its own X (all the genes it kept), var and varm, over the container's cells. */
    private Raw raw(Node node, int nObs) {
        String encoding = Hdf5.encodingType(node);
        if (encoding != null && !"raw".equals(encoding)) {
            throw Hdf5.error(node, "expected encoding-type raw, found " + encoding);
        }
        Frame var = FrameReader.read(Hdf5.child(node, "var"));
        FileMatrix x = matrix(Hdf5.child(node, "X"), nObs, var.size());
        Node varm = Hdf5.childOrNull(node, "varm");
        Map<String, Object> m = varm == null ? Map.of() : elements.mapping(varm);
        return Hdf5.guard(node, () -> new Raw(x, var, m));
    }

    /** The matrix at {@code node}, which must be {@code rows x cols}. */
    private FileMatrix matrix(Node node, int rows, int cols) {
        FileMatrix m = elements.matrix(node);
        if (m.nRows() != rows || m.nCols() != cols) {
            throw Hdf5.error(
                    node,
                    "expected shape " + rows + " x " + cols + " (obs x var), found " + m.nRows() + " x " + m.nCols());
        }
        return m;
    }

    /** Hands every member of the group {@code name} (when present) to {@code put}, naming the member on failure. */
    private static void members(Group root, String name, BiConsumer<String, Node> put) {
        Node group = Hdf5.childOrNull(root, name);
        if (group == null) {
            return;
        }
        if (!(group instanceof Group g)) {
            throw Hdf5.error(group, "expected a group (a dict), found a dataset");
        }
        for (Node link : Hdf5.guard(g, g::getChildren).values()) {
            Node member = Hdf5.resolve(link);
            Hdf5.guard(member, () -> {
                put.accept(link.getName(), member);
                return null;
            });
        }
    }

    /** Opens {@code file}, telling a file that is not HDF5, or is cut short, from one that is. */
    private static HdfFile open(Path file) {
        IOException notAnInput = FileGuard.notAnInput(file);
        if (notAnInput != null) {
            throw new UncheckedIOException(notAnInput);
        }
        HdfFile hdf;
        try {
            hdf = Hdf5.open(file);
        } catch (RuntimeException e) {
            throw notHdf5(file, e.getMessage(), e);
        }
        try {
            long end = hdf.getUserBlockSize()
                    + hdf.getHdfBackingStorage().getSuperblock().getEndOfFileAddress();
            if (hdf.size() < end) {
                throw notHdf5(file, "the file has " + hdf.size() + " bytes, its superblock says " + end, null);
            }
            return hdf;
        } catch (RuntimeException e) {
            hdf.close();
            throw e instanceof ScfluxFormatException ? e : notHdf5(file, e.getMessage(), e);
        }
    }

    private static ScfluxFormatException notHdf5(Path file, @Nullable String detail, @Nullable Throwable cause) {
        return new ScfluxFormatException(file.toString(), "/", "not an HDF5 file or truncated: " + detail, cause);
    }
}
