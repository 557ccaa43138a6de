//===- CompileWorker.cpp - Compiles off the GUI thread --------------------===//

#include "CompileWorker.h"

using namespace klx::app;

CompileWorker::CompileWorker(std::function<void()> wake)
    : wake(std::move(wake)), thread([this] { loop(); }) {}

CompileWorker::~CompileWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
    pending.reset();
  }
  wakeWorker.notify_all();
  thread.join();
}

void CompileWorker::submit(CompileRequest request) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    pending = std::move(request);
  }
  wakeWorker.notify_all();
}

std::optional<CompileResult> CompileWorker::poll() {
  std::lock_guard<std::mutex> lock(mutex);
  std::optional<CompileResult> result = std::move(finished);
  finished.reset();
  return result;
}

bool CompileWorker::busy() const {
  std::lock_guard<std::mutex> lock(mutex);
  return pending.has_value() || !running.empty();
}

std::string CompileWorker::runningFile() const {
  std::lock_guard<std::mutex> lock(mutex);
  return running;
}

void CompileWorker::loop() {
  while (true) {
    CompileRequest request;
    {
      std::unique_lock<std::mutex> lock(mutex);
      wakeWorker.wait(lock, [&] { return stopping || pending.has_value(); });
      if (stopping)
        return;
      request = std::move(*pending);
      pending.reset();
      running = request.fileName.empty() ? "untitled" : request.fileName;
    }
    auto run = std::make_shared<PipelineRun>(
        runPipeline(request.source, request.fileName, request.options));
    auto timeline = std::make_shared<TimelineViews>(buildTimelineViews(*run));
    {
      std::lock_guard<std::mutex> lock(mutex);
      finished = CompileResult{request.id, std::move(run), std::move(timeline)};
      running.clear();
    }
    if (wake)
      wake();
  }
}
