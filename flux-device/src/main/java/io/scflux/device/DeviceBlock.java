package io.scflux.device;

import io.scflux.core.RowBlock;

/**
 * A row block uploaded into the device buffers of a {@link CudaBackend#toDevice} stream. The buffers are reused for
 * the next block, so it is valid while the subscriber handles it (in {@code onNext}), never after.
 */
public final class DeviceBlock {

    private final RowBlock host;
    private final DeviceBlocks buffers;

    DeviceBlock(RowBlock host, DeviceBlocks buffers) {
        this.host = host;
        this.buffers = buffers;
    }

    /** The block as it was read on the host (shape, position, and the arrays that were uploaded). */
    public RowBlock host() {
        return host;
    }

    DeviceBlocks buffers() {
        return buffers;
    }

    @Override
    public String toString() {
        return "DeviceBlock[" + host + "]";
    }
}
