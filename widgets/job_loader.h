#pragma once

#include "analysis/distributed.h"
#include "analysis/job_clock.h"
#include "import/nsys_report_export.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace ws {

class Session;

/*
 * LoadedJob: the ranks of one distributed job as the UI holds them. ranks[i] and sessions[i] are
 * the same worker, ordered by rank; sessions are null when the job was opened from summaries
 * (no trace loaded, the tables only).
 */
struct LoadedJob {
    QStringList inputs;                                   // what was asked to open (files, folders)
    std::vector<RankDistributed> ranks;                   // the per-rank blocks, by rank
    std::vector<std::shared_ptr<const Session>> sessions; // per rank; null entries: not loaded
    ClockAlignment clock;                                 // automatic alignment of the ranks' clocks
    QStringList skipped;                                  // "file: why" for files that failed
    qint64 elapsedMs = 0;
    bool fromSummaries = false;
};

/*
 * JobLoader opens the ranks of a job on a worker thread with core's loadJobRanks (through the
 * session library: stored ranks reopen in parallel with their cached distributed blocks, new ones
 * are imported one after the other and stored after the job is shown). Files that fail are skipped
 * and reported; the job fails only when no rank loads. Destroying the loader cancels and joins its
 * worker.
 */
class JobLoader : public QObject {
    Q_OBJECT
public:
    explicit JobLoader(QObject* parent = nullptr);
    ~JobLoader() override;

    void setLibraryDirectory(const QString& dir) { m_libraryDir = dir; }
    // Which nsys converts Nsight Systems reports among the job's files (the app's Settings).
    void setNsysOptions(const NsysExportOptions& options) { m_nsys = options; }
    bool isBusy() const { return m_busy; }
    // Starts loading the job made of `inputs` (files and folders, see expandJobInputs); false while
    // another job is loading.
    bool load(const QStringList& inputs);
    // Starts merging the `warpscope-cli summary --json` files in `dir` (no trace is read).
    bool loadSummaries(const QString& dir);
    void cancel() { m_cancel = true; }

signals:
    void progressChanged(int permille, const QString& file);
    void loaded(std::shared_ptr<const ws::LoadedJob> job);
    void failed(const QString& what, const QString& message);
    void cancelled();

private:
    void start(std::function<void()> work);
    void finish(std::shared_ptr<LoadedJob> job, const QString& what);

    std::thread m_worker;
    std::vector<std::thread> m_storing; // workers still storing their new ranks in the library
    std::atomic<bool> m_cancel{false};
    bool m_busy = false;
    QString m_libraryDir;
    NsysExportOptions m_nsys;
};

} // namespace ws
