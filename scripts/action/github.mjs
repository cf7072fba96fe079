// GitHub's REST API as the Action's scripts call it: GITHUB_API_URL (GitHub Enterprise Server
// sets it; api.github.com otherwise) and the token in GITHUB_TOKEN.

/** A variable the runner sets; an error naming it when it is not. */
export const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

/** One GitHub REST call; the parsed answer. */
export async function github(method, path, body) {
  const response = await fetch(`${process.env.GITHUB_API_URL ?? 'https://api.github.com'}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${env('GITHUB_TOKEN')}`,
      'x-github-api-version': '2022-11-28',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
