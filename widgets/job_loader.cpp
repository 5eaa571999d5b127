#include "job_loader.h"

#include "analysis/distributed_json.h"
#include "import/job_files.h"
#include "library/job_loading.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMetaObject>

#include <algorithm>

namespace ws {

JobLoader::JobLoader(QObject* parent) : QObject(parent) {}

JobLoader::~JobLoader() {
    m_cancel = true;
    if (m_worker.joinable())
        m_worker.join();
    for (std::thread& t : m_storing)
        t.join();
}

void JobLoader::start(std::function<void()> work) {
    if (m_worker.joinable())
        m_storing.push_back(std::move(m_worker));
    m_busy = true;
    m_cancel = false;
    m_worker = std::thread(std::move(work));
}

void JobLoader::finish(std::shared_ptr<LoadedJob> job, const QString& what) {
    if (m_cancel) {
        QMetaObject::invokeMethod(this, [this] {
            m_busy = false;
            emit cancelled();
        }, Qt::QueuedConnection);
        return;
    }
    if (job->ranks.empty()) {
        const QString why = job->skipped.isEmpty() ? tr("no rank could be loaded") : job->skipped.join(QLatin1Char('\n'));
        QMetaObject::invokeMethod(this, [this, what, why] {
            m_busy = false;
            emit failed(what, why);
        }, Qt::QueuedConnection);
        return;
    }
    // Workers by rank, sessions following their blocks (computeJobDistributed keeps this order); a
    // launcher process opened with the ranks is left out.
    std::vector<size_t> order = jobWorkerIndices(job->ranks);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const int ra = job->ranks[a].rank, rb = job->ranks[b].rank;
        if ((ra < 0) != (rb < 0))
            return ra >= 0;
        return ra < rb;
    });
    std::vector<RankDistributed> ranks;
    std::vector<std::shared_ptr<const Session>> sessions;
    for (size_t i : order) {
        ranks.push_back(std::move(job->ranks[i]));
        sessions.push_back(i < job->sessions.size() ? job->sessions[i] : nullptr);
    }
    job->ranks = std::move(ranks);
    job->sessions = std::move(sessions);
    job->clock = alignJobClocks(job->ranks);
    QMetaObject::invokeMethod(this, [this, j = std::shared_ptr<const LoadedJob>(job)] {
        m_busy = false;
        emit loaded(j);
    }, Qt::QueuedConnection);
}

bool JobLoader::load(const QStringList& inputs) {
    if (m_busy)
        return false;
    start([this, inputs, libraryDir = m_libraryDir, nsys = m_nsys] {
        QElapsedTimer timer;
        timer.start();
        auto job = std::make_shared<LoadedJob>();
        job->inputs = inputs;
        std::vector<std::string> paths;
        for (const QString& p : inputs)
            paths.push_back(QFile::encodeName(p).toStdString());
        std::string error;
        // Remote ranks download first (each shows its progress); Cancel stops the download.
        const std::vector<std::string> files =
            expandJobInputs(paths, &error, &m_cancel, [this](const std::string& url, uint64_t done, int64_t total) {
                if (total <= 0)
                    return;
                const int permille = static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total));
                const QString shown = QString::fromStdString(url.substr(url.rfind('/') + 1));
                QMetaObject::invokeMethod(this, [this, permille, shown] { emit progressChanged(permille, shown); },
                                          Qt::QueuedConnection);
            });
        if (files.empty() && !m_cancel)
            job->skipped << QString::fromStdString(error);
        JobLoadOptions options;
        options.libraryDir = QFile::encodeName(libraryDir).toStdString();
        options.cancel = &m_cancel;
        options.nsysExport = nsys;
        int lastPermille = -1;
        options.progress = [this, &lastPermille](double fraction, const std::string& file) {
            const int permille = static_cast<int>(fraction * 1000.0);
            if (permille == lastPermille)
                return;
            lastPermille = permille;
            const QString shown = QFileInfo(QFile::decodeName(file.c_str())).fileName();
            QMetaObject::invokeMethod(this, [this, permille, shown] { emit progressChanged(permille, shown); },
                                      Qt::QueuedConnection);
        };
        std::vector<JobRankLoad> loads = loadJobRanks(files, options);
        for (JobRankLoad& r : loads) {
            if (!r.session) {
                if (!m_cancel)
                    job->skipped << tr("%1: %2").arg(QFileInfo(QFile::decodeName(r.file.c_str())).fileName(),
                                                     QString::fromStdString(r.error));
                continue;
            }
            job->ranks.push_back(r.block);
            job->sessions.push_back(r.session);
        }
        job->elapsedMs = timer.elapsed();
        finish(job, inputs.join(QStringLiteral(", ")));
        // New ranks go to the library after the job is shown, so reopening it is fast.
        storeJobRanks(loads, options);
    });
    return true;
}

bool JobLoader::loadSummaries(const QString& dir) {
    if (m_busy)
        return false;
    start([this, dir] {
        QElapsedTimer timer;
        timer.start();
        auto job = std::make_shared<LoadedJob>();
        job->inputs = QStringList{dir};
        job->fromSummaries = true;
        const QFileInfoList entries = QDir(dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QFileInfo& f : entries) {
            if (m_cancel)
                break;
            QFile file(f.absoluteFilePath());
            if (!file.open(QIODevice::ReadOnly)) {
                job->skipped << tr("%1: %2").arg(f.fileName(), file.errorString());
                continue;
            }
            const QByteArray text = file.readAll();
            std::string error;
            auto rank = rankDistributedFromJson(std::string_view(text.constData(), static_cast<size_t>(text.size())), &error);
            if (!rank) {
                job->skipped << tr("%1: %2").arg(f.fileName(), QString::fromStdString(error));
                continue;
            }
            job->ranks.push_back(std::move(*rank));
        }
        if (entries.isEmpty())
            job->skipped << tr("%1: no summary files (*.json)").arg(dir);
        job->sessions.assign(job->ranks.size(), nullptr);
        job->elapsedMs = timer.elapsed();
        finish(job, dir);
    });
    return true;
}

} // namespace ws
