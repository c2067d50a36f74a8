// `npm run sdk:pack [-- DIR]`: writes the client package the server serves at
// /downloads/memory-hq-client.tgz to DIR (default: packages/memory-hq-client), as memory-hq-client-<version>.tgz,
// for installing without a running server (`npm install ./memory-hq-client-<version>.tgz`).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SDK_PACKAGE_NAME, sdkPackageDir, sdkTarball } from "@/lib/sdk/package/build";

const dir = path.resolve(process.argv[2] ?? sdkPackageDir());
const { version, tarball } = sdkTarball();
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `${SDK_PACKAGE_NAME}-${version}.tgz`);
writeFileSync(file, tarball);
console.log(file);
