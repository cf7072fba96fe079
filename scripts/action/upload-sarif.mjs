#!/usr/bin/env node
// The SARIF upload of the GitHub Action (action.yml): POST /repos/{owner}/{repo}/code-scanning/sarifs
// with the log gzip-compressed and base64-encoded, for the commit that was analysed (HEAD of the
// checkout) and its ref. On a pull request that is `refs/pull/N/head` when the checkout is the
// pull request's head commit, else `refs/pull/N/merge` (what actions/checkout checks out for a
// pull_request event); elsewhere GITHUB_REF. Code scanning then annotates the pull request.
// A failed upload (code scanning not enabled, a token without security-events: write) is a
// warning in the job, never its failure: the plan and its gates stand without it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { env, github } from './github.mjs';

/** The commit and ref the analysis relates to. */
function target() {
  const sha = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const pr = JSON.parse(readFileSync(env('GITHUB_EVENT_PATH'), 'utf8')).pull_request;
  if (pr?.number === undefined) return { sha, ref: env('GITHUB_REF') };
  return { sha, ref: `refs/pull/${pr.number}/${sha === pr.head?.sha ? 'head' : 'merge'}` };
}

async function main([sarifFile]) {
  const log = readFileSync(sarifFile);
  if (log.length === 0 || !process.env.GITHUB_TOKEN) {
    console.log(`render-clusterclass: ${log.length === 0 ? 'no plan was made' : 'no github-token'}; no SARIF upload`);
    return;
  }
  const { sha, ref } = target();
  const sarif = gzipSync(log).toString('base64');
  const answer = await github('POST', `/repos/${env('GITHUB_REPOSITORY')}/code-scanning/sarifs`, {
    commit_sha: sha,
    ref,
    sarif,
    tool_name: 'render-clusterclass',
  });
  console.log(`render-clusterclass: uploaded the SARIF plan for ${ref} (${sha}), id ${answer.id}`);
}

main(process.argv.slice(2)).catch((e) => {
  // A workflow command: the runner shows it as a warning annotation on the job.
  console.log(`::warning title=render-clusterclass SARIF upload::${e instanceof Error ? e.message : String(e)}`);
});
