/** What the upload route answered: its status, its JSON body (null when none), its Retry-After. */
export interface UploadReply {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/**
 * Sends one file as the request's body, reporting the bytes sent as they go. XMLHttpRequest rather
 * than fetch: only it reports an upload's progress. Rejects only when the server cannot be reached.
 */
export function uploadFile(url: string, file: Blob, onSent: (sent: number) => void): Promise<UploadReply> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.setRequestHeader("content-type", "application/octet-stream");
    request.upload.onprogress = (event) => onSent(event.loaded);
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = null;
      }
      resolve({ status: request.status, body, retryAfter: request.getResponseHeader("retry-after") });
    };
    request.onerror = () => reject(new Error("unreachable"));
    request.send(file);
  });
}
