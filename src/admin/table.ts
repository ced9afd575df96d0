import type { Engine } from '../store/engine/index.js'

/** What POST /v1/app (the Admin API) created an app as. */
export interface AppProfile {
  appKey: string
  appName: string
  androidPackage: string
  groupName: string | null
  createdAt: number
}

export type CertificateEnvironment = 'dev' | 'pro'

/** An APNs certificate uploaded to an app (POST /v1/app/{appKey}/certificate). */
export interface AppCertificate {
  appKey: string
  environment: CertificateEnvironment
  fileName: string
  bytes: Buffer
  subject: string
  bundleId: string | null
  notAfter: number
  uploadedAt: number
}

interface ProfileRow {
  app_key: string
  app_name: string
  android_package: string
  group_name: string | null
  created_at: number
}

interface CertificateRow {
  app_key: string
  environment: string
  file_name: string
  bytes: Buffer
  subject: string
  bundle_id: string | null
  not_after: number
  uploaded_at: number
}

const toProfile = (r: ProfileRow): AppProfile => ({
  appKey: r.app_key,
  appName: r.app_name,
  androidPackage: r.android_package,
  groupName: r.group_name,
  createdAt: r.created_at,
})

const toCertificate = (r: CertificateRow): AppCertificate => ({
  appKey: r.app_key,
  environment: r.environment as CertificateEnvironment,
  fileName: r.file_name,
  bytes: r.bytes,
  subject: r.subject,
  bundleId: r.bundle_id,
  notAfter: r.not_after,
  uploadedAt: r.uploaded_at,
})

/** The Admin API's records of an app: how it was created, and its APNs certificates. */
export function createAdminStore({ db }: Engine) {
  const insertProfile = db.prepare(
    `INSERT INTO app_profiles (app_key, app_name, android_package, group_name, created_at)
     VALUES (@appKey, @appName, @androidPackage, @groupName, @createdAt)`,
  )
  const profile = db.prepare<[string], ProfileRow>('SELECT * FROM app_profiles WHERE app_key = ?')
  const byPackage = db.prepare<{ devKey: string; androidPackage: string }, ProfileRow>(
    `SELECT p.* FROM app_profiles p JOIN apps a ON a.app_key = p.app_key
     WHERE a.dev_key = @devKey AND p.android_package = @androidPackage ORDER BY p.created_at LIMIT 1`,
  )
  const saveCertificate = db.prepare(
    `INSERT INTO app_certificates (app_key, environment, file_name, bytes, subject, bundle_id, not_after, uploaded_at)
     VALUES (@appKey, @environment, @fileName, @bytes, @subject, @bundleId, @notAfter, @uploadedAt)
     ON CONFLICT (app_key, environment) DO UPDATE SET file_name = excluded.file_name, bytes = excluded.bytes,
       subject = excluded.subject, bundle_id = excluded.bundle_id, not_after = excluded.not_after,
       uploaded_at = excluded.uploaded_at`,
  )
  const certificates = db.prepare<[string], CertificateRow>(
    'SELECT * FROM app_certificates WHERE app_key = ? ORDER BY environment',
  )

  return {
    insertProfile(p: AppProfile): void {
      insertProfile.run(p)
    },
    profile(appKey: string): AppProfile | undefined {
      const row = profile.get(appKey)
      return row && toProfile(row)
    },
    /** The developer's app made for this Android package, the first if several. */
    byPackage(devKey: string, androidPackage: string): AppProfile | undefined {
      const row = byPackage.get({ devKey, androidPackage })
      return row && toProfile(row)
    },
    /** Keeps the certificate, replacing the environment's earlier one. */
    saveCertificate(c: AppCertificate): void {
      saveCertificate.run(c)
    },
    certificates(appKey: string): AppCertificate[] {
      return certificates.all(appKey).map(toCertificate)
    },
  }
}

declare module '../store/index.js' {
  interface Tables {
    /** The Admin API's records: how an app was created, its APNs certificates (store.admin). */
    admin: ReturnType<typeof createAdminStore>
  }
}
