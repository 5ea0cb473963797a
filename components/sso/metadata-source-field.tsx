"use client";

import { useState } from "react";
import { MAX_METADATA_BYTES, type MetadataSource, type ProviderType, type SsoProvider } from "@/server/sso/schemas";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { PROVIDER_TYPE_INFO } from "./provider-types";

/** A metadata file picked in the browser, read as text; sent as `metadata_xml`. */
export interface MetadataFile {
  name: string;
  size: number;
  xml: string;
}

/** SAML metadata can be uploaded for every type that may speak SAML (not plain OpenID Connect). */
export const canUpload = (type: ProviderType) => type !== "oidc";

export function formatSize(bytes: number) {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const radio =
  "mt-0.5 size-4 shrink-0 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";
const fileInput =
  "block w-full text-sm text-slate-700 file:mr-3 file:h-9 file:cursor-pointer file:rounded-md file:border-0 file:bg-white " +
  "file:px-3 file:text-sm file:font-medium file:text-slate-900 file:shadow-sm file:ring-1 file:ring-slate-300 file:ring-inset " +
  "hover:file:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 " +
  "aria-invalid:file:ring-red-500";

interface MetadataSourceFieldProps {
  type: ProviderType;
  /** The provider edited; none when adding one. */
  provider?: SsoProvider;
  source: MetadataSource;
  onSource: (source: MetadataSource) => void;
  url: string;
  onUrl: (url: string) => void;
  file: MetadataFile | null;
  onFile: (file: MetadataFile | null) => void;
  errors: { metadata_url?: string; metadata_xml?: string };
  /** Shows a message under the file field (one the browser found: too large, unreadable). */
  onFileError: (message: string | null) => void;
}

/**
 * Where the IdP's metadata comes from: its URL, or (SAML) a metadata file uploaded from the
 * browser, for an IdP behind a firewall or Google Workspace, which hands out a file. The file is
 * read here as text; the server reads what it says and answers under the field when it is not
 * usable. A provider whose metadata came from a file shows the entity ID read from it and may take
 * another file.
 */
export function MetadataSourceField(props: MetadataSourceFieldProps) {
  const { type, source, onSource, url, onUrl, errors } = props;
  const info = PROVIDER_TYPE_INFO[type];
  const upload = canUpload(type);
  const urlField = (
    <Field id="sso-metadata_url" label={info.urlLabel} hint={info.hint} error={errors.metadata_url}>
      {(control) => (
        <Input
          {...control}
          type="url"
          name="metadata_url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={info.placeholder}
          value={url}
          onChange={(event) => onUrl(event.target.value)}
        />
      )}
    </Field>
  );
  if (!upload) return urlField;
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">Identity provider metadata</legend>
      <div className="flex flex-col gap-2 text-sm sm:flex-row sm:gap-6">
        <div className="flex gap-3">
          <input
            id="sso-source-url"
            type="radio"
            name="metadata-source"
            checked={source === "url"}
            onChange={() => onSource("url")}
            className={radio}
          />
          <label htmlFor="sso-source-url" className="font-medium text-slate-700">
            Metadata URL
          </label>
        </div>
        <div className="flex gap-3">
          <input
            id="sso-source-xml"
            type="radio"
            name="metadata-source"
            checked={source === "xml"}
            onChange={() => onSource("xml")}
            className={radio}
          />
          <label htmlFor="sso-source-xml" className="font-medium text-slate-700">
            Upload metadata file
          </label>
        </div>
      </div>
      {source === "url" ? urlField : <FileField {...props} />}
    </fieldset>
  );
}

function FileField({ provider, file, onFile, errors, onFileError }: MetadataSourceFieldProps) {
  const [reading, setReading] = useState(false);
  const stored = provider?.metadata_source === "xml" ? provider : null;

  async function pick(picked: File | undefined) {
    onFileError(null);
    if (!picked) return onFile(null);
    if (picked.size > MAX_METADATA_BYTES) {
      onFile(null);
      return onFileError(`Metadata file must be at most 1 MiB (${picked.name} is ${formatSize(picked.size)})`);
    }
    setReading(true);
    try {
      onFile({ name: picked.name, size: picked.size, xml: await picked.text() });
    } catch {
      onFile(null);
      onFileError(`Metadata file could not be read (${picked.name})`);
    } finally {
      setReading(false);
    }
  }

  return (
    <div className="space-y-2">
      {stored ? (
        <p
          className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset"
          data-testid="metadata-from-file"
        >
          From an uploaded file
          {stored.metadata.entity_id ? (
            <>
              {" "}
              (entity ID <code className="font-mono text-xs break-all text-slate-900">{stored.metadata.entity_id}</code>)
            </>
          ) : null}
          . Choose another file to replace it.
        </p>
      ) : null}
      <Field
        id="sso-metadata_xml"
        label={stored ? "Replace with another file" : "Metadata file"}
        hint="The IdP's SAML metadata (.xml, at most 1 MiB), e.g. GoogleIDPMetadata.xml from Google Workspace. It is read when you save."
        error={errors.metadata_xml}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            name="metadata_xml"
            accept=".xml,application/xml,text/xml,application/samlmetadata+xml"
            className={fileInput}
            onChange={(event) => void pick(event.target.files?.[0])}
          />
        )}
      </Field>
      {reading ? <p className="text-xs text-slate-600">Reading the file…</p> : null}
      {file ? (
        <p className="text-sm text-slate-700" data-testid="metadata-file">
          <span className="font-medium break-all text-slate-900">{file.name}</span> · {formatSize(file.size)}
        </p>
      ) : null}
    </div>
  );
}
