/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import javax.imageio.ImageIO;

/**
 * What a test sees of a PNG plot: that it decodes, and its colours. Shared by the tests of {@code scflux plot} and of
 * the service's plots.
 */
public final class Images {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private Images() {}

    /** {@code png} decoded, after checking its signature. */
    public static BufferedImage decode(byte[] png) throws IOException {
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, PNG_SIGNATURE.length), "PNG signature");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertTrue(image != null, "ImageIO decodes it");
        return image;
    }

    /**
     * Hues of the image's coloured pixels (greys left out: background, grid, text) in buckets of 15 degrees, counting
     * those that fill at least {@code min} pixels: a point colour and its antialiased blends with white share a hue.
     */
    public static int hues(BufferedImage image, int min) {
        int[] counts = new int[24];
        float[] hsb = new float[3];
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                    Color.RGBtoHSB(r, g, b, hsb);
                    counts[Math.min(23, (int) (hsb[0] * 24))]++;
                }
            }
        }
        return (int) Arrays.stream(counts).filter(c -> c >= min).count();
    }

    /** The number of distinct colours of the image's pixels. */
    public static long colours(BufferedImage image) {
        return Arrays.stream(image.getRGB(0, 0, image.getWidth(), image.getHeight(), null, 0, image.getWidth()))
                .distinct()
                .count();
    }
}
