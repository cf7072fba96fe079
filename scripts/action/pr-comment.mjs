#!/usr/bin/env node
// The pull-request comment of the GitHub Action (action.yml): creates it, or updates the one it
// created before, found by a hidden marker on its first line, so a pull request never gets a
// second one. Reads the plan (Markdown) from the file named on the command line; GitHub's own
// variables say where: GITHUB_REPOSITORY, GITHUB_EVENT_PATH (the pull_request event), and those
// of ./github.mjs. Outside a pull request it says so and does nothing.
import { readFileSync } from 'node:fs';
import { env, github } from './github.mjs';

const MARKER = '<!-- render-clusterclass plan -->';
/** GitHub refuses a comment body of more characters. */
const COMMENT_LIMIT = 65_536;
const TRUNCATED = '\n\n… (truncated: the whole plan is in the job summary)\n';

/** The comment this action posted before on the pull request, if any (every page is read). */
async function ownComment(repository, number) {
  for (let page = 1; ; page++) {
    const comments = await github('GET', `/repos/${repository}/issues/${number}/comments?per_page=100&page=${page}`);
    const own = comments.find((c) => typeof c.body === 'string' && c.body.startsWith(MARKER));
    if (own || comments.length < 100) return own;
  }
}

const commentBody = (plan) => {
  const body = `${MARKER}\n${plan}`;
  return body.length <= COMMENT_LIMIT ? body : body.slice(0, COMMENT_LIMIT - TRUNCATED.length) + TRUNCATED;
};

async function main([planFile]) {
  const event = JSON.parse(readFileSync(env('GITHUB_EVENT_PATH'), 'utf8'));
  const number = event.pull_request?.number;
  if (number === undefined) {
    console.log('render-clusterclass: not a pull request event; no comment');
    return;
  }
  const repository = env('GITHUB_REPOSITORY');
  const body = commentBody(readFileSync(planFile, 'utf8'));
  const own = await ownComment(repository, number);
  if (own) await github('PATCH', `/repos/${repository}/issues/comments/${own.id}`, { body });
  else await github('POST', `/repos/${repository}/issues/${number}/comments`, { body });
  console.log(`render-clusterclass: ${own ? 'updated' : 'created'} the plan comment on #${number}`);
}

main(process.argv.slice(2)).catch((e) => {
  console.error(`render-clusterclass: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
