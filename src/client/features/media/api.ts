// Calls of the media screens (/edit/media, /edit/gallery, /edit/verify; docs/decisions/0300): the media
// state, uploads with progress, deleting, reordering, the video's conversion progress and the
// verification request. Writes are TanStack mutations that invalidate the state they change.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import type {
  DeletedResponse,
  GalleryOrderResponse,
  MediaItemResponse,
  MediaState,
  MediaStateResponse,
  PhotoType,
  VideoResponse,
  VideoState,
} from '#shared/schemas/media.ts';
import type { VerificationState, VerificationStateResponse } from '#shared/schemas/verification.ts';
import { CSRF_COOKIE, CSRF_HEADER } from '#shared/constants.ts';
import { api, ApiError, apiUrl, report } from '#client/lib/api.ts';
import { readCookie } from '#client/lib/cookies.ts';
import { i18n } from '#client/lib/i18n.ts';

export type { MediaState, VerificationState, VideoState };

export const mediaKeys = {
  state: (id: number) => ['media', id] as const,
  verification: (id: number) => ['verification', id] as const,
};

const validId = (id: number) => Number.isInteger(id) && id > 0;

export function useMediaState(id: number) {
  return useQuery({
    queryKey: mediaKeys.state(id),
    queryFn: async ({ signal }) =>
      (await api<z.infer<typeof MediaStateResponse>>(`/edit/getGallery/${id}`, { signal })).data,
    enabled: validId(id),
    staleTime: 0,
  });
}

export function useVerification(id: number) {
  return useQuery({
    queryKey: mediaKeys.verification(id),
    queryFn: async ({ signal }) =>
      (await api<z.infer<typeof VerificationStateResponse>>(`/edit/getVerification/${id}`, { signal })).data,
    enabled: validId(id),
    staleTime: 0,
  });
}

/** While a video converts, its progress every second (the job writes it as ffmpeg reports). */
export function useVideoProgress(id: number, video: VideoState | null) {
  const client = useQueryClient();
  return useQuery({
    queryKey: ['media', id, 'video', video?.id],
    queryFn: async ({ signal }) => {
      const state = (await api<z.infer<typeof VideoResponse>>(`/edit/videoProgress/${id}`, { signal })).data;
      if (state.status !== 'processing') void client.invalidateQueries({ queryKey: mediaKeys.state(id) });
      return state;
    },
    enabled: video?.status === 'processing',
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'processing' ? false : 1000),
  });
}

export interface UploadOptions {
  /** Statuses the caller turns into its own dialog (the avatar rule's 403). */
  handle?: number[];
  onProgress: (fraction: number) => void;
}

/**
 * multipart POST with the file in `file`, through XMLHttpRequest because fetch reports no upload
 * progress. Errors go through the same catalogue as every other call (lib/api).
 */
export function uploadFile<T>(path: string, file: File, options: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.setRequestHeader('Accept', 'application/json');
    const csrf = readCookie(CSRF_COOKIE);
    if (csrf) xhr.setRequestHeader(CSRF_HEADER, csrf);
    if (i18n.language) xhr.setRequestHeader('x-language', i18n.language);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress(1);
        resolve(body as T);
        return;
      }
      const message = body && typeof body === 'object' && 'message' in body ? String(body.message) : xhr.statusText;
      const error = new ApiError(xhr.status, body, message);
      report(error, options.handle);
      reject(error);
    };
    xhr.onerror = () => {
      const error = new ApiError(0, null, 'Network error');
      report(error, options.handle);
      reject(error);
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** An upload as a mutation: `progress` is 0-1 while it runs, null otherwise. */
function useUpload<T>(path: (file: File) => string, invalidate: ReadonlyArray<readonly unknown[]>, handle?: number[]) {
  const client = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: (file: File) => {
      setProgress(0);
      return uploadFile<T>(path(file), file, { handle, onProgress: setProgress });
    },
    onSettled: async () => {
      setProgress(null);
      await Promise.all(invalidate.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
  return { ...mutation, progress };
}

/** Uploads a picture for the account `id` (an admin acting for someone passes it as ?id=). */
export function usePhotoUpload(id: number, type: PhotoType, self: boolean) {
  const path = `/upload/photo/${type}${self ? '' : `?id=${id}`}`;
  return useUpload<z.infer<typeof MediaItemResponse>>(
    () => path,
    [mediaKeys.state(id), mediaKeys.verification(id)],
    type === 'avatar' ? [403] : undefined,
  );
}

export function useVideoUpload(id: number) {
  return useUpload<z.infer<typeof VideoResponse>>(() => `/upload/video/${id}`, [mediaKeys.state(id)]);
}

export function usePhotoIdUpload(id: number) {
  return useUpload<z.infer<typeof VerificationStateResponse>>(() => `/edit/verify/${id}`, [mediaKeys.verification(id)]);
}

function useMediaMutation<A>(id: number, call: (arg: A) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: mediaKeys.state(id) }),
  });
}

export const useDeleteMedia = (id: number) =>
  useMediaMutation(id, (mediaId: number) =>
    api<z.infer<typeof DeletedResponse>>(`/edit/deleteMedia/${id}`, { method: 'POST', body: { id: mediaId } }),
  );

export const useDeleteVideo = (id: number) =>
  useMediaMutation(id, () => api<z.infer<typeof DeletedResponse>>(`/edit/deleteVideo/${id}`));

export const useDeleteAllMedia = (id: number) =>
  useMediaMutation(id, () =>
    api<z.infer<typeof DeletedResponse>>(`/edit/deleteAllMedia/${id}`, { method: 'POST', body: {}, loading: true }),
  );

/** Saves the new order; the list shows it at once and rolls back if the server refuses. */
export function useGalleryOrder(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (gallery: number[]) =>
      api<z.infer<typeof GalleryOrderResponse>>(`/edit/updateGalleryPos/${id}`, { method: 'POST', body: { gallery } }),
    onMutate: async (gallery) => {
      await client.cancelQueries({ queryKey: mediaKeys.state(id) });
      const before = client.getQueryData<MediaState>(mediaKeys.state(id));
      if (before) {
        const byId = new Map(before.gallery.map((g) => [g.id, g]));
        client.setQueryData<MediaState>(mediaKeys.state(id), {
          ...before,
          gallery: gallery.map((g) => byId.get(g)).filter((g) => g !== undefined),
        });
      }
      return { before };
    },
    onError: (_error, _gallery, context) => {
      if (context?.before) client.setQueryData(mediaKeys.state(id), context.before);
    },
    onSettled: () => client.invalidateQueries({ queryKey: mediaKeys.state(id) }),
  });
}
