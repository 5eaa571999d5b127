#include "io/input_stream.h"

#include "io/growing_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

namespace ws {

namespace {
constexpr size_t kInBufferSize = 1 << 20;
// Readers that skip from event to event far apart (an analysis reading the arguments of the NCCL
// kernels spread over a 1 GB trace, 50 KB apart) need a few hundred bytes at each: a full buffer at
// each read most of the file (0.05 s of a 1 GB store's analyses). After a skip of at least
// kFarSkip, the next refill reads only what the caller asked for (at least a page); the one after
// it fills the buffer again. Nearer skips stay in or next to the buffer, as a sequential reader's do.
constexpr uint64_t kFarSkip = 16 << 10;
constexpr size_t kMinRead = 4 << 10;
// A reader of a file still being downloaded waits for this much more before it reads again.
constexpr uint64_t kFollowBatch = 256u << 10;
}

struct InputStream::Codec {
    z_stream zs{};
    bool zInit = false;
    ZSTD_DStream* zstd = nullptr;
    size_t lastZstdRet = 0;
    ~Codec() {
        if (zInit)
            inflateEnd(&zs);
        if (zstd)
            ZSTD_freeDStream(zstd);
    }
};

InputStream::InputStream() = default;

InputStream::~InputStream() {
    if (m_fd >= 0)
        ::close(m_fd);
}

bool InputStream::open(const std::string& path, std::shared_ptr<GrowingFile> growing) {
    m_growing = std::move(growing);
    // A growing file is read through its own descriptor: it may be renamed while we read.
    m_fd = m_growing ? ::fcntl(m_growing->fd(), F_DUPFD_CLOEXEC, 0) : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) {
        m_error = errno == ENOENT ? "the file does not exist" : std::string("cannot open the file: ") + std::strerror(errno);
        return false;
    }
    struct stat st {};
    if (::fstat(m_fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        m_error = "is a directory, not a trace file";
        return false;
    }
    m_fileSize = static_cast<uint64_t>(st.st_size);
    if (m_growing && m_growing->expectedSize() > 0)
        m_fileSize = static_cast<uint64_t>(m_growing->expectedSize()); // for progress: the whole object
    // A small file gets a buffer its size (the analyses open their sources again for arguments;
    // a megabyte each time is most of the work for a trace of a few KB).
    m_inCapacity = m_growing ? kInBufferSize : std::clamp<size_t>(static_cast<size_t>(m_fileSize) + 1, 4096, kInBufferSize);
    m_in.reset(new char[m_inCapacity]);
    refill();
    const auto* b = reinterpret_cast<const unsigned char*>(m_in.get());
    if (m_inLen >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
        m_compression = Compression::Gzip;
        m_codec = std::make_unique<Codec>();
        if (inflateInit2(&m_codec->zs, 15 + 32) != Z_OK) {
            m_error = "cannot initialise gzip decompression";
            return false;
        }
        m_codec->zInit = true;
    } else if (m_inLen >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd) {
        m_compression = Compression::Zstd;
        m_codec = std::make_unique<Codec>();
        m_codec->zstd = ZSTD_createDStream();
        ZSTD_initDStream(m_codec->zstd);
    }
    return true;
}

long InputStream::readFile(char* out, size_t n) {
    if (m_growing) {
        // Plain and compressed files alike read sequentially from m_fileConsumed (skip() and
        // restore() are not used on a file that is still growing).
        const uint64_t available = m_growing->waitBeyond(m_fileConsumed, std::min<uint64_t>(n, kFollowBatch));
        if (available <= m_fileConsumed)
            return 0;
        n = static_cast<size_t>(std::min<uint64_t>(n, available - m_fileConsumed));
    }
    ssize_t got;
    do {
        // A growing file's descriptor is shared (dup) with other readers: read at our own offset.
        got = m_growing ? ::pread(m_fd, out, n, static_cast<off_t>(m_fileConsumed)) : ::read(m_fd, out, n);
    } while (got < 0 && errno == EINTR);
    if (got > 0 && m_observer)
        m_observer(out, static_cast<size_t>(got));
    return static_cast<long>(got);
}

bool InputStream::observeFileBytes(std::function<void(const char*, size_t)> observer) {
    // Only open()'s first read so far: its bytes are still in the buffer.
    if (m_fd < 0 || m_fileConsumed != m_inLen)
        return false;
    m_observer = std::move(observer);
    if (m_inLen > 0)
        m_observer(m_in.get(), m_inLen);
    return true;
}

bool InputStream::refill(size_t want) {
    if (m_eof)
        return false;
    const long got = readFile(m_in.get(), m_afterSeek ? std::clamp(want, kMinRead, m_inCapacity) : m_inCapacity);
    m_afterSeek = false;
    if (got <= 0) {
        m_eof = true;
        m_inLen = m_inPos = 0;
        if (got < 0)
            m_error = std::string("read error: ") + std::strerror(errno);
        return false;
    }
    m_inPos = 0;
    m_inLen = static_cast<size_t>(got);
    m_fileConsumed += static_cast<uint64_t>(got);
    return true;
}

size_t InputStream::read(char* out, size_t n) {
    if (m_fd < 0 || n == 0 || m_finished)
        return 0;
    size_t got = 0;
    switch (m_compression) {
    case Compression::None: got = readRaw(out, n); break;
    case Compression::Gzip: got = readGzip(out, n); break;
    case Compression::Zstd: got = readZstd(out, n); break;
    }
    m_textPos += got;
    return got;
}

class InputStream::Checkpoint {
public:
    z_stream zs{};
    bool valid = false;
    uint64_t filePos = 0; // offset of the next compressed byte the decoder has not consumed
    uint64_t textPos = 0;
    bool finished = false;
    ~Checkpoint() {
        if (valid)
            inflateEnd(&zs);
    }
};

std::shared_ptr<const InputStream::Checkpoint> InputStream::checkpoint() const {
    if (!canCheckpoint() || !m_codec)
        return nullptr;
    auto cp = std::make_shared<Checkpoint>();
    if (inflateCopy(&cp->zs, &m_codec->zs) != Z_OK)
        return nullptr;
    cp->valid = true;
    cp->filePos = m_fileConsumed - (m_inLen - m_inPos);
    cp->textPos = m_textPos;
    cp->finished = m_finished;
    return cp;
}

bool InputStream::restore(const Checkpoint& cp) {
    if (!canCheckpoint() || !m_codec || !cp.valid)
        return false;
    inflateEnd(&m_codec->zs);
    m_codec->zInit = false;
    if (inflateCopy(&m_codec->zs, const_cast<z_stream*>(&cp.zs)) != Z_OK)
        return false;
    m_codec->zInit = true;
    m_observer = nullptr; // the bytes are no longer read in order
    if (::lseek(m_fd, static_cast<off_t>(cp.filePos), SEEK_SET) < 0)
        return false;
    m_fileConsumed = cp.filePos;
    m_inPos = m_inLen = 0;
    m_eof = false;
    m_finished = cp.finished;
    m_textPos = cp.textPos;
    return true;
}

size_t InputStream::readRaw(char* out, size_t n) {
    size_t total = 0;
    while (total < n) {
        if (m_inPos == m_inLen) {
            // Large reads bypass the staging buffer.
            if (n - total >= m_inCapacity) {
                const long got = readFile(out + total, n - total);
                if (got <= 0) {
                    m_eof = true;
                    break;
                }
                m_fileConsumed += static_cast<uint64_t>(got);
                total += static_cast<size_t>(got);
                continue;
            }
            if (!refill(n - total))
                break;
        }
        const size_t take = std::min(n - total, m_inLen - m_inPos);
        std::memcpy(out + total, m_in.get() + m_inPos, take);
        m_inPos += take;
        total += take;
    }
    return total;
}

size_t InputStream::readGzip(char* out, size_t n) {
    z_stream& zs = m_codec->zs;
    zs.next_out = reinterpret_cast<Bytef*>(out);
    zs.avail_out = static_cast<uInt>(std::min<size_t>(n, UINT32_MAX));
    while (zs.avail_out > 0) {
        if (m_inPos == m_inLen && !refill()) {
            // Input ended: fine only if the last member was complete.
            if (!m_finished && zs.total_in > 0)
                m_truncated = true;
            m_finished = true;
            break;
        }
        zs.next_in = reinterpret_cast<Bytef*>(m_in.get() + m_inPos);
        zs.avail_in = static_cast<uInt>(m_inLen - m_inPos);
        const int ret = inflate(&zs, Z_NO_FLUSH);
        m_inPos = m_inLen - zs.avail_in;
        if (ret == Z_STREAM_END) {
            // Concatenated gzip members continue; trailing zero padding ends the stream.
            if (m_inPos == m_inLen && !refill()) {
                m_finished = true;
                break;
            }
            if (m_in[static_cast<ptrdiff_t>(m_inPos)] == 0) {
                m_finished = true;
                break;
            }
            inflateReset(&zs);
            continue;
        }
        if (ret != Z_OK && ret != Z_BUF_ERROR) {
            m_error = "the gzip data is corrupt";
            m_truncated = true;
            m_finished = true;
            break;
        }
    }
    return n - zs.avail_out;
}

size_t InputStream::readZstd(char* out, size_t n) {
    ZSTD_outBuffer ob{out, n, 0};
    while (ob.pos < ob.size) {
        if (m_inPos == m_inLen && !refill()) {
            if (m_codec->lastZstdRet != 0)
                m_truncated = true;
            m_finished = true;
            break;
        }
        ZSTD_inBuffer ib{m_in.get(), m_inLen, m_inPos};
        const size_t ret = ZSTD_decompressStream(m_codec->zstd, &ob, &ib);
        m_inPos = ib.pos;
        if (ZSTD_isError(ret)) {
            m_error = "the zstd data is corrupt";
            m_truncated = true;
            m_finished = true;
            break;
        }
        m_codec->lastZstdRet = ret;
    }
    return ob.pos;
}

bool InputStream::skip(uint64_t n) {
    if (m_compression == Compression::None) {
        const uint64_t buffered = m_inLen - m_inPos;
        if (n <= buffered) {
            m_inPos += n;
            m_textPos += n;
            return true;
        }
        n -= buffered;
        m_inPos = m_inLen = 0;
        m_observer = nullptr; // the bytes skipped are not read
        const off_t pos = ::lseek(m_fd, static_cast<off_t>(n), SEEK_CUR);
        m_textPos += buffered + n;
        m_afterSeek = n >= kFarSkip;
        return pos >= 0;
    }
    char buf[1 << 16];
    while (n > 0) {
        const size_t got = read(buf, static_cast<size_t>(std::min<uint64_t>(n, sizeof buf)));
        if (got == 0)
            return false;
        n -= got;
    }
    return true;
}

} // namespace ws
