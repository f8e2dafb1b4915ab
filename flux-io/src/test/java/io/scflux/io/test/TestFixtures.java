/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@code .h5ad} fixtures of flux-io's test resources (written by anndata and h5py; see
 * {@code flux-io/src/test/python}), for other modules' tests. Inside a jar a fixture is copied once to a temporary
 * file, since readers need a path.
 */
public final class TestFixtures {

    private static final ConcurrentMap<String, Path> COPIES = new ConcurrentHashMap<>();

    private TestFixtures() {}

    /** The path of fixture {@code name} (e.g. {@code synth-3k.int64.h5ad}). */
    public static Path path(String name) {
        return resource("/fixtures/" + name);
    }

    /**
     * The path of any test resource on the classpath (e.g. {@code /expected/pca.h5ad} of flux-ops' test-jar), copied
     * once to a temporary file when it lies inside a jar.
     */
    public static Path resource(String absoluteName) {
        return COPIES.computeIfAbsent(absoluteName, TestFixtures::locate);
    }

    private static Path locate(String absoluteName) {
        var url = TestFixtures.class.getResource(absoluteName);
        if (url == null) {
            throw new IllegalArgumentException("no test resource " + absoluteName);
        }
        String name = absoluteName.substring(absoluteName.lastIndexOf('/') + 1);
        try {
            if ("file".equals(url.getProtocol())) {
                return Path.of(url.toURI());
            }
            Path copy = Files.createTempFile("scflux-fixture-", "-" + name);
            copy.toFile().deleteOnExit();
            try (InputStream in = url.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
