/** Our side of the YAML differential campaign (scripts/yaml/campaign.mjs): the functions under test, from src/. */
import type { Product } from '../../scripts/yaml/campaign.mjs';
import { runFunction } from '../../src/cli/render.js';
import { parseTemplateOutput } from '../../src/gotemplate/index.js';
import { emitYaml } from '../../src/output/emit.js';
import { readYamlStream } from '../../src/krm/read.js';
import { goMarshal } from '../../src/core/go/json.js';
import { fakeIO } from '../helpers/io.js';

export const product: Product = {
  readYamlStream,
  parseTemplateOutput,
  emitYaml,
  goMarshal,
  async krmFunction(text) {
    const io = fakeIO(text);
    const code = await runFunction(io);
    return { code, out: code === 0 ? io.out : io.err };
  },
};
