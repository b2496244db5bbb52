#include "core/child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <stdexcept>

extern char** environ;

namespace kverify {

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& o) {
  if (argv.empty()) throw std::invalid_argument("run_child: no program");
  std::vector<std::string> env_storage;
  for (char** e = environ; *e; ++e) {
    const std::string_view kv = *e;
    bool replaced = false;
    for (const auto& add : o.env)
      replaced = replaced || kv.substr(0, kv.find('=') + 1) == add.substr(0, add.find('=') + 1);
    if (!replaced) env_storage.emplace_back(kv);
  }
  env_storage.insert(env_storage.end(), o.env.begin(), o.env.end());
  env_storage.push_back(std::string(kInternalChildMark) + "=" + std::to_string(::getpid()));
  std::vector<char*> envp, args;
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_storage = argv;
  for (auto& a : argv_storage) args.push_back(a.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  int fds[2] = {-1, -1};
  if (o.capture) {
    if (pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
  }
  // The child stays in our process group: Ctrl-C stops it (and its own children) with us.
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) {
    if (o.capture) close(fds[0]), close(fds[1]);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(err));
  }
  ChildResult r;
  const auto start = std::chrono::steady_clock::now();
  const auto past_limit = [&] {
    return o.time_limit > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > o.time_limit;
  };
  if (o.capture) {
    close(fds[1]);
    std::string partial;
    char buf[4096];
    while (true) {
      pollfd p{fds[0], POLLIN, 0};
      const int ready = poll(&p, 1, 1000);
      if (ready < 0 && errno != EINTR) break;
      if (ready > 0) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n <= 0) break;
        const std::string_view chunk(buf, static_cast<std::size_t>(n));
        r.output.append(chunk);
        if (o.echo) std::fwrite(buf, 1, chunk.size(), stderr);
        if (o.log) o.log->write(buf, n);
        if (o.on_line) {
          partial.append(chunk);
          for (std::size_t at; (at = partial.find('\n')) != std::string::npos; partial.erase(0, at + 1))
            o.on_line(partial.substr(0, at));
        }
      }
      if (!r.timed_out && past_limit()) {
        kill(pid, SIGKILL);
        r.timed_out = true;
      }
    }
    if (o.on_line && !partial.empty()) o.on_line(partial);
    close(fds[0]);
  }
  int status = 0;
  while (true) {
    const pid_t w = waitpid(pid, &status, o.capture ? 0 : WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    if (!r.timed_out && past_limit()) {
      kill(pid, SIGKILL);
      r.timed_out = true;
    }
    if (w == 0) usleep(100000);
  }
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  if (r.timed_out) r.output += "\nkverify: the child ran past its time limit and was stopped\n";
  return r;
}

std::string output_of(const std::vector<std::string>& argv) {
  try {
    ChildResult r = run_child(argv, {.time_limit = 30});
    if (r.exit_code != 0) return "";
    while (!r.output.empty() && (r.output.back() == '\n' || r.output.back() == ' ')) r.output.pop_back();
    return r.output;
  } catch (const std::exception&) {
    return "";
  }
}

std::string this_program() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

std::string fuzz_run_of_this_build() {
  const std::filesystem::path exe = this_program();
  if (exe.empty()) return "fuzz_run";
  std::error_code ec;
  if (const auto beside = exe.parent_path() / "fuzz_run"; std::filesystem::exists(beside, ec)) return beside;
  // An installed kverify: <prefix>/bin/kverify, <prefix>/libexec/kverify/fuzz_run (cmake/KverifyInstall.cmake).
  if (const auto installed = exe.parent_path().parent_path() / "libexec" / "kverify" / "fuzz_run";
      std::filesystem::exists(installed, ec))
    return installed;
  return exe.parent_path().parent_path() / "fuzz" / "fuzz_run";
}

}  // namespace kverify
